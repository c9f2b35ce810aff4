import type { Contract, ContractCase } from '../emit/contract.js';
import { operationOf, requestProblems, responseProblems } from './check-exchange.js';
import type { Exchange } from './exchanges.js';
import { scriptFix, type ScriptFix } from './script-fix.js';

export type Severity = 'critical' | 'high' | 'medium' | 'low';

export interface BugJudgement {
  verdict: 'bug';
  severity: Severity;
  summary: string;
  expected: string;
  actual: string;
  rootCause: string;
  /** The exchange that shows it, and what came before it in the test. */
  exchange: Exchange;
  before: Exchange[];
}

export type Judgement =
  | BugJudgement
  | { verdict: 'script'; reason: string; fix?: ScriptFix }
  | { verdict: 'unknown'; reason: string };

const NEGATIVE = new Set(['missing-required', 'wrong-type', 'bad-format', 'out-of-range', 'malformed-body']);

export interface JudgeInput {
  contract: Contract;
  caseId?: string;
  exchanges: readonly Exchange[];
  /** The failure's evidence: the assertion message and the traceback. */
  evidence: string;
  /** The test function's source, for a fix. */
  source?: string;
}

function clip(value: unknown, n = 200): string {
  const s = typeof value === 'string' ? value : JSON.stringify(value);
  return s === undefined ? '' : s.length > n ? `${s.slice(0, n)}...` : s;
}

function credentialSent(contract: Contract, e: Exchange): boolean {
  const name = contract.auth?.kind === 'apiKey' ? (contract.auth.name ?? '') : 'authorization';
  return (
    Object.keys(e.request.headers).some((h) => h.toLowerCase() === name.toLowerCase()) ||
    (contract.auth?.in === 'query' && e.url.includes(`${name}=`))
  );
}

/**
 * The deterministic tier: is a failing generated test a product bug (the service breaks the
 * document), a script error (the test broke it, or misread it), or something it cannot tell? It
 * reads the test's recorded exchanges against api_contract.json; a server error is always a bug,
 * an answer that breaks its declared schema, status or Content-Type to a request that keeps the
 * document is a bug, and a request of ours that breaks the document is a script error.
 */
export function judge(input: JudgeInput): Judgement {
  const { contract, exchanges } = input;
  const c: ContractCase | undefined = input.caseId ? contract.cases[input.caseId] : undefined;
  const last = exchanges.at(-1);
  if (!last) return { verdict: 'unknown', reason: 'the test sent no request before it failed' };
  const before = exchanges.slice(0, -1);
  const api = `${last.method} ${last.path}`;
  const found = operationOf(contract, last);
  const bug = (
    severity: Severity,
    summary: string,
    expected: string,
    actual: string,
    rootCause: string,
  ): BugJudgement => ({
    verdict: 'bug',
    severity,
    summary,
    expected,
    actual,
    rootCause,
    exchange: last,
    before,
  });
  if (!found) {
    const fix = scriptFix(input, { kind: 'url', exchange: last });
    return {
      verdict: 'script',
      reason: `the test called ${api}, which the document does not have`,
      ...(fix ? { fix } : {}),
    };
  }
  const [opId, op] = found;
  const status = last.response.status;
  const sentCredential = credentialSent(contract, last);
  const request = requestProblems(op, last, sentCredential || c?.kind === 'no-auth');
  const intent = c?.kind ?? 'positive';
  if (status >= 500)
    return bug(
      'critical',
      `${api} answers ${status} (a server error)`,
      request.length > 0
        ? `a 4xx: the request breaks the document (${request[0]})`
        : `a declared answer of ${opId}`,
      `${status}: ${clip(last.response.body)}`,
      request.length > 0
        ? `the service fails on input it should refuse: ${request.join('; ')}`
        : 'the service fails on a request that keeps the document',
    );
  const response = responseProblems(op, opId, last, contract.responseTimeLimitS);
  if (intent === 'data' && c && /^\d{3}$/.test(c.expect) && String(status) !== c.expect) {
    const source = c.source ?? 'the test data';
    if (status < 300 && request.length > 0)
      return bug(
        'medium',
        `${api} accepts a request that breaks the document (${source})`,
        `${c.expect}: ${request[0]}`,
        `${status}: ${clip(last.response.body)}`,
        `the service does not validate its input: ${request.join('; ')}`,
      );
    if (response.length === 0)
      return bug(
        'medium',
        `${api} answers ${status} where ${source} expects ${c.expect}`,
        `${c.expect} (${source})`,
        `${status}: ${clip(last.response.body)}`,
        `the service does not do what ${source} says: ${c.scenario}`,
      );
  }
  if (intent === 'data' && /^4/.test(c?.expect ?? '') && status >= 400 && status < 500)
    return {
      verdict: 'unknown',
      reason: `${api} answered ${status} to ${c?.source ?? 'a data row'}, which expects ${c?.expect}`,
    };
  if (NEGATIVE.has(intent)) {
    if (request.length === 0 || (request.length === 1 && request[0]!.startsWith('no credential')))
      return {
        verdict: 'script',
        reason: `case ${input.caseId} meant to break ${c?.field ?? 'the request'}, but the request it sent keeps the document`,
      };
    if (status < 400)
      return bug(
        'medium',
        `${api} accepts a request that breaks the document (${c?.breaks ?? intent}${c?.field ? ` of ${c.field}` : ''})`,
        `a 4xx: ${request[0]}`,
        `${status}: ${clip(last.response.body)}`,
        `the service does not validate its input: ${request.join('; ')}`,
      );
    if (status < 500 && response.length > 0)
      return bug(
        'low',
        `${api} answers ${status} outside its declaration`,
        'the declared error answer',
        response.map((r) => r.text).join('; '),
        response[0]!.text,
      );
    return {
      verdict: 'unknown',
      reason: `${api} answered ${status} to case ${input.caseId}, a 4xx as expected; the failure is elsewhere`,
    };
  }
  if (intent === 'no-auth') {
    if (status < 300)
      return bug(
        'high',
        `${api} answers without a credential`,
        '401: the operation requires a credential',
        `${status}: ${clip(last.response.body)}`,
        'the service does not check the credential the document requires',
      );
    if (status !== 401 && status !== 403)
      return bug(
        'low',
        `${api} answers ${status} without a credential`,
        '401',
        `${status}: ${clip(last.response.body)}`,
        'the service reports a missing credential with another status than the document declares',
      );
    return { verdict: 'unknown', reason: `${api} answered ${status} without a credential` };
  }
  const requestOwn = request.filter((p) => !p.startsWith('no credential') || sentCredential);
  if (requestOwn.length > 0) {
    const fix = scriptFix(input, { kind: 'request', exchange: last, problems: requestOwn, opId });
    return {
      verdict: 'script',
      reason: `the test sent a request that breaks the document: ${requestOwn.join('; ')}`,
      ...(fix ? { fix } : {}),
    };
  }
  if (request.some((p) => p.startsWith('no credential')) && status === 401)
    return {
      verdict: 'unknown',
      reason: `${api} needs a credential and none was sent; set ${contract.auth?.env ?? 'the token variable'}`,
    };
  const schema = response.find((r) => r.what === 'schema');
  if (schema)
    return bug(
      'high',
      `${api} answers a body that breaks its schema`,
      `a body that matches the declared ${status} schema`,
      `${schema.text}: ${clip(last.response.body)}`,
      before.length > 0
        ? `${schema.text}, after ${before.map((b) => `${b.method} ${b.path} -> ${b.response.status}`).join(', ')}: an earlier call left the data in a state the document forbids`
        : schema.text,
    );
  const undeclared = response.find((r) => r.what === 'status');
  if (undeclared)
    return bug(
      'medium',
      `${api} answers ${status}, a status it does not declare`,
      `one of ${Object.keys(op.responses).join(', ')}`,
      `${status}: ${clip(last.response.body)}`,
      undeclared.text,
    );
  const media = response.find((r) => r.what === 'content-type');
  if (media)
    return bug(
      'low',
      `${api} answers the wrong Content-Type`,
      'the declared Content-Type',
      media.text,
      media.text,
    );
  const slow = response.find((r) => r.what === 'time');
  if (slow)
    return bug(
      'low',
      `${api} answers slowly`,
      `an answer within ${contract.responseTimeLimitS} s`,
      slow.text,
      slow.text,
    );
  // The answer keeps the document: the test misread it.
  const fix = scriptFix(input, { kind: 'expectation', exchange: last, opId });
  if (fix)
    return {
      verdict: 'script',
      reason: `${api} answered as the document declares; the test expected otherwise`,
      fix,
    };
  return {
    verdict: 'unknown',
    reason: `${api} answered ${status} as the document declares; the test expects something the document does not say`,
  };
}
