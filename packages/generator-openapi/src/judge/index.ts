import { API_VERSION, defineFixer, type Fixer, type FixProposalInput } from '@suture/core';
import { caseIdOf, readContract } from './contract-file.js';
import { judge, type BugJudgement, type Judgement } from './decide.js';
import { evidenceOf, readExchanges } from './exchanges.js';
import { testSource } from './source.js';

export { judge, type BugJudgement, type Judgement, type JudgeInput, type Severity } from './decide.js';
export { readExchanges, evidenceOf, exchangeFile, type Exchange } from './exchanges.js';
export { readContract, caseIdOf } from './contract-file.js';

/** What a product-bug verdict carries in its evidence, for bug_report.json. */
export function bugEvidence(caseId: string | undefined, j: BugJudgement): string {
  return JSON.stringify({
    testcase_id: caseId,
    severity: j.severity,
    root_cause: j.rootCause,
    ...evidenceOf(j.exchange),
    ...(j.before.length > 0
      ? { before: j.before.map((b) => `${b.method} ${b.url} -> ${b.response.status}`) }
      : {}),
  });
}

/**
 * The deterministic judge of a generated API suite, first in its fixer ladder: it reads the
 * failing tests' recorded exchanges against api_contract.json and answers a product bug (the
 * service breaks the document: never "fixed", the test stays failing), an edit of the test (it
 * broke or misread the document, and the repair is one it can name), or unfixable (the next
 * fixer, an LLM, gets it).
 */
export default function openapiJudge(): Fixer {
  return defineFixer({
    name: '@suture/generator-openapi/judge',
    apiVersion: API_VERSION,
    kinds: ['assertion', 'exception'],
    async propose(request, ctx): Promise<FixProposalInput> {
      const usage = { calls: 0, costUsd: 0 };
      const contract = await readContract(ctx.root);
      if (!contract)
        return {
          verdict: 'unfixable',
          diagnosis: 'no api_contract.json in the project: not a suite written by suture generate api',
          usage,
        };
      const judged: Array<{ test: string; caseId?: string; file: string; j: Judgement }> = [];
      for (const test of request.failure.tests) {
        const caseId = caseIdOf(test);
        const { file, source } = await testSource(ctx.root, test);
        const exchanges = await readExchanges(ctx.root, test);
        const j = judge({
          contract,
          ...(caseId ? { caseId } : {}),
          exchanges,
          evidence: request.failure.evidence,
          ...(source ? { source } : {}),
        });
        judged.push({ test, ...(caseId ? { caseId } : {}), file, j });
      }
      if (judged.length > 0 && judged.every((x) => x.j.verdict === 'bug')) {
        const first = judged[0]!;
        const j = first.j as BugJudgement;
        const more =
          judged.length > 1
            ? ` (and ${judged.length - 1} more test(s): ${judged
                .slice(1)
                .map((x) => x.caseId ?? x.test)
                .join(', ')})`
            : '';
        return {
          verdict: 'product-bug',
          bug: {
            summary: `${first.caseId ? `${first.caseId}: ` : ''}${j.summary}${more}`,
            expected: j.expected,
            actual: j.actual,
            evidence: bugEvidence(first.caseId, j),
            file: first.file,
            symbol: first.test.split('::')[1] ?? first.test,
          },
          rationale: `${j.severity}: ${j.rootCause}`,
          usage,
        };
      }
      const fixes = judged.filter((x) => x.j.verdict === 'script' && x.j.fix);
      if (judged.length > 0 && fixes.length === judged.length)
        return {
          verdict: 'edits',
          edits: fixes.map((x) => {
            const fix = (x.j as Extract<Judgement, { verdict: 'script' }>).fix!;
            return { file: x.file, search: fix.search, replace: fix.replace };
          }),
          rationale: fixes
            .map(
              (x) =>
                `${x.caseId ?? x.test}: script error: ${(x.j as Extract<Judgement, { verdict: 'script' }>).fix!.why}`,
            )
            .join('\n'),
          usage,
        };
      return {
        verdict: 'unfixable',
        diagnosis: judged
          .map(
            (x) =>
              `${x.caseId ?? x.test}: ${x.j.verdict === 'bug' ? `product bug: ${x.j.summary}` : x.j.verdict === 'script' ? `script error: ${x.j.reason}` : x.j.reason}`,
          )
          .join('\n'),
        usage,
      };
    },
  });
}
