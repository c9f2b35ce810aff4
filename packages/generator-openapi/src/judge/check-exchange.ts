import type { Contract, ContractOperation } from '../emit/contract.js';
import type { Exchange } from './exchanges.js';
import { schemaProblems } from './validator.js';

/** The operation an exchange called, by method and path template, with its id. */
export function operationOf(contract: Contract, e: Exchange): [string, ContractOperation] | undefined {
  return Object.entries(contract.operations).find(([, op]) => op.method === e.method && op.path === e.path);
}

export function declaredResponse(
  op: ContractOperation,
  status: number,
): { key: string; spec: ContractOperation['responses'][string] } | undefined {
  for (const key of [String(status), `${String(status)[0]}XX`, 'default'])
    if (op.responses[key]) return { key, spec: op.responses[key] };
  return undefined;
}

function typed(value: unknown, schema: Record<string, unknown>): unknown {
  // path and query values travel as text; read them as the type the document gives them
  if (typeof value !== 'string') return value;
  const t = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if ((t === 'integer' || t === 'number') && value.trim() !== '' && !Number.isNaN(Number(value)))
    return Number(value);
  if (t === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

/** What the request breaks of the document: missing or mistyped parameters, a body that does not fit. */
export function requestProblems(op: ContractOperation, e: Exchange, credentialSent: boolean): string[] {
  const problems: string[] = [];
  for (const p of op.params) {
    const source = p.in === 'path' ? e.pathArgs : p.in === 'query' ? e.query : undefined;
    if (!source) continue;
    const value = source[p.name];
    if (value === undefined || value === null) {
      if (p.required) problems.push(`the required ${p.in} parameter ${p.name} is missing`);
      continue;
    }
    for (const why of schemaProblems(p.schema, typed(value, p.schema)))
      problems.push(`${p.in} parameter ${p.name}${why.replace(/^\/:?/, '')}`);
  }
  if (op.body) {
    const body = e.request.body;
    if (e.request.raw) problems.push('the body is not JSON');
    else if (body === null || body === undefined) {
      if (op.body.required) problems.push('the required body is missing');
    } else for (const why of schemaProblems(op.body.schema, body)) problems.push(`body ${why}`);
  }
  if (op.secured && !credentialSent) problems.push('no credential, which the operation requires');
  return problems;
}

/** What the answer breaks of the document: an undeclared status, its Content-Type, its schema, its time. */
export function responseProblems(
  op: ContractOperation,
  opId: string,
  e: Exchange,
  limitS: number,
): Array<{ what: 'status' | 'content-type' | 'schema' | 'time'; text: string }> {
  const status = e.response.status;
  const declared = declaredResponse(op, status);
  if (!declared)
    return [
      {
        what: 'status',
        text: `${status} is not a status ${opId} declares (it declares ${Object.keys(op.responses).join(', ')})`,
      },
    ];
  const out: Array<{ what: 'status' | 'content-type' | 'schema' | 'time'; text: string }> = [];
  const body = e.response.body;
  const hasBody = body !== null && body !== undefined && body !== '';
  const want = declared.spec.contentType?.split(';')[0]!.trim().toLowerCase();
  const got = (
    Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-type')?.[1] ?? ''
  )
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (
    hasBody &&
    want &&
    want !== '*/*' &&
    got !== want &&
    !(want.endsWith('json') && (got.endsWith('+json') || got === 'application/json'))
  )
    out.push({ what: 'content-type', text: `Content-Type ${got || 'none'}, where ${opId} declares ${want}` });
  if (hasBody && declared.spec.schema) {
    if (typeof body === 'string' && want?.endsWith('json'))
      out.push({ what: 'schema', text: `a body that is not JSON: ${body.slice(0, 120)}` });
    else
      for (const why of schemaProblems(declared.spec.schema, body))
        out.push({ what: 'schema', text: `the body breaks the ${declared.key} schema of ${opId} at ${why}` });
  }
  if (e.elapsedMs > limitS * 1000)
    out.push({
      what: 'time',
      text: `it took ${(e.elapsedMs / 1000).toFixed(2)} s, over the limit of ${limitS} s`,
    });
  return out;
}
