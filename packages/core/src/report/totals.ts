import type { FailureReport, ProjectReport, Round, Totals } from '../api/contracts/report.js';

export function emptyTotals(): Totals {
  return {
    tests: 0,
    passed: 0,
    failed: 0,
    skipped: 0,
    failures: 0,
    healed: 0,
    stillFailing: 0,
    bugs: 0,
    flaky: 0,
    quarantined: 0,
    llmCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    replayedAnswers: 0,
  };
}

export function projectTotals(finalRound: Round | undefined, failures: readonly FailureReport[]): Totals {
  const t = emptyTotals();
  for (const test of finalRound?.tests ?? []) {
    t.tests++;
    if (test.status === 'passed') t.passed++;
    else if (test.status === 'skipped') t.skipped++;
    else t.failed++;
  }
  for (const f of failures) {
    t.failures++;
    if (f.outcome === 'healed') t.healed++;
    else if (f.outcome === 'flaky') t.flaky++;
    else if (f.outcome === 'quarantined') t.quarantined++;
    else t.stillFailing++;
    if (f.outcome === 'product-bug') t.bugs++;
    for (const a of f.attempts) {
      if (!a.usage) continue;
      t.llmCalls += a.usage.calls;
      t.inputTokens += a.usage.inputTokens;
      t.outputTokens += a.usage.outputTokens;
      t.cacheReadTokens += a.usage.cacheReadTokens;
      t.cacheWriteTokens += a.usage.cacheWriteTokens;
      t.costUsd += a.usage.costUsd;
      t.replayedAnswers += a.usage.replayed?.answers ?? 0;
    }
  }
  return t;
}

export function sumTotals(projects: readonly ProjectReport[]): Totals {
  const t = emptyTotals();
  for (const p of projects) for (const k of Object.keys(t) as Array<keyof Totals>) t[k] += p.totals[k];
  t.costUsd = Math.round(t.costUsd * 1e6) / 1e6;
  return t;
}

export function projectStatus(failures: readonly FailureReport[], error?: string): ProjectReport['status'] {
  if (error) return 'failed';
  // a failure that passed when re-run was not healed: nothing was written for it; a quarantined
  // one is known and owned
  const real = failures.filter((f) => f.outcome !== 'flaky' && f.outcome !== 'quarantined');
  if (real.length === 0) return 'completed';
  const healed = real.filter((f) => f.outcome === 'healed').length;
  if (healed === real.length) return 'healed';
  return healed > 0 ? 'failed_after_repair' : 'failed';
}
