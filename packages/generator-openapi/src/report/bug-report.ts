import type { GateReport } from '@suture/core';
import type { Contract } from '../emit/contract.js';
import { caseIdOf } from '../judge/contract-file.js';
import { judge, type Severity } from '../judge/decide.js';
import { evidenceOf, readExchanges } from '../judge/exchanges.js';
import { testSource } from '../judge/source.js';

export interface BugEntry {
  testcase_id: string | null;
  api: string;
  scenario: string;
  expected: string;
  actual: string;
  severity: Severity;
  root_cause: string;
  evidence: { request?: unknown; response?: unknown; before?: string[] };
  test: string;
  found_by: string;
}

export interface BugReportFile {
  api: string;
  runId: string;
  summary: Record<Severity, number> & { total: number };
  bugs: BugEntry[];
}

const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low'];

function severityOf(text: string): Severity {
  const word = SEVERITIES.find((s) => new RegExp(`\\b${s}\\b`, 'i').test(text));
  return word ?? 'medium';
}

/**
 * bug_report.json: one entry per test that shows a product bug, with the exchange that shows it.
 * The judge's verdicts are read again from the recorded exchanges of the final run; an LLM's
 * verdict keeps its own words, with the test's last exchange as evidence.
 */
export async function buildBugReport(
  report: GateReport,
  contract: Contract,
  root: string,
): Promise<BugReportFile> {
  const bugs: BugEntry[] = [];
  for (const project of report.projects) {
    for (const f of project.failures) {
      if (f.outcome !== 'product-bug' || !f.bug) continue;
      const by = [...f.attempts].reverse().find((a) => a.verdict === 'product-bug')?.fixer ?? 'unknown';
      for (const test of f.failure.tests) {
        const caseId = caseIdOf(test);
        const c = caseId ? contract.cases[caseId] : undefined;
        const exchanges = await readExchanges(root, test);
        const { source } = await testSource(root, test);
        const j = judge({
          contract,
          ...(caseId ? { caseId } : {}),
          exchanges,
          evidence: f.failure.evidence,
          ...(source ? { source } : {}),
        });
        const last = exchanges.at(-1);
        if (j.verdict === 'bug') {
          bugs.push({
            testcase_id: caseId ?? null,
            api: `${j.exchange.method} ${j.exchange.path}`,
            scenario: c?.scenario ?? f.failure.title,
            expected: j.expected,
            actual: j.actual,
            severity: j.severity,
            root_cause: j.rootCause,
            evidence: {
              ...evidenceOf(j.exchange),
              ...(j.before.length
                ? { before: j.before.map((b) => `${b.method} ${b.url} -> ${b.response.status}`) }
                : {}),
            },
            test,
            found_by: by,
          });
        } else {
          bugs.push({
            testcase_id: caseId ?? null,
            api: c?.api ?? (last ? `${last.method} ${last.path}` : ''),
            scenario: c?.scenario ?? f.failure.title,
            expected: f.bug.expected,
            actual: f.bug.actual,
            severity: severityOf(
              `${f.bug.summary} ${[...f.attempts].reverse().find((a) => a.verdict === 'product-bug')?.rationale ?? ''}`,
            ),
            root_cause: f.bug.summary,
            evidence: last ? evidenceOf(last) : {},
            test,
            found_by: by,
          });
        }
      }
    }
  }
  const summary = { total: bugs.length, critical: 0, high: 0, medium: 0, low: 0 };
  for (const b of bugs) summary[b.severity]++;
  bugs.sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      String(a.testcase_id).localeCompare(String(b.testcase_id)),
  );
  return { api: contract.title, runId: report.runId, summary, bugs };
}
