import type { GateReport, ProjectReport, TestResult } from '@suture/core';

export type CaseStatus = 'passed' | 'bug' | 'failing' | 'not-run';

export interface TestOutcome {
  status: CaseStatus;
  /** Validated heals of the test's failures. */
  heals: number;
  /** Attempts made on its failures (every fixer's). */
  attempts: number;
  /** Its last result. */
  result?: TestResult;
  /** The expectation of a heal was changed (a reviewer should look). */
  expectationChanged: boolean;
}

/** Each test's last result: the final full run, then any later re-check of single tests. */
export function finalResults(project: ProjectReport): Map<string, TestResult> {
  const rounds = project.rounds;
  const lastFull = [...rounds].reverse().findIndex((r) => r.kind === 'initial' || r.kind === 'regression');
  const from = lastFull < 0 ? 0 : rounds.length - 1 - lastFull;
  const results = new Map<string, TestResult>();
  for (const round of rounds.slice(from)) {
    if (round.kind === 'retry') continue;
    for (const t of round.tests) results.set(t.id, t);
  }
  return results;
}

/** What happened to each test: passed (healed or not), a product bug, still failing, or not run. */
export function testOutcomes(report: GateReport): Map<string, TestOutcome> {
  const out = new Map<string, TestOutcome>();
  for (const project of report.projects) {
    const results = finalResults(project);
    const bugTests = new Set(
      project.failures.filter((f) => f.outcome === 'product-bug').flatMap((f) => f.failure.tests),
    );
    for (const [id, result] of results) {
      const failures = project.failures.filter((f) => f.failure.tests.includes(id));
      const passed = result.status === 'passed';
      out.set(id, {
        status: passed
          ? 'passed'
          : bugTests.has(id)
            ? 'bug'
            : result.status === 'skipped'
              ? 'not-run'
              : 'failing',
        heals: failures.filter((f) => f.outcome === 'healed').length,
        attempts: failures.reduce((n, f) => n + f.attempts.length, 0),
        result,
        expectationChanged: failures.some(
          (f) =>
            f.outcome === 'healed' && f.attempts.some((a) => a.verdict === 'healed' && a.expectationChanged),
        ),
      });
    }
  }
  return out;
}
