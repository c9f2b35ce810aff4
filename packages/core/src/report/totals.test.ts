import { describe, expect, it } from 'vitest';
import { FailureReportSchema, type ProjectReport } from '../api/contracts/report.js';
import { projectStatus, projectTotals, sumTotals } from './totals.js';

const failure = (outcome: string, usages: Array<Record<string, number>>) =>
  FailureReportSchema.parse({
    failure: {
      id: 'p:f',
      kind: 'assertion',
      title: 't',
      tests: ['t'],
      evidence: '',
      fingerprint: 'f',
      repairable: true,
    },
    outcome,
    attempts: usages.map((usage, i) => ({
      attempt: i + 1,
      fixer: 'x',
      verdict: 'failed-validation',
      usage,
      durationMs: 1,
      startedAt: '2026-01-01T00:00:00.000Z',
    })),
  });

describe('totals', () => {
  it('adds up tokens, cache traffic and cost of every attempt', () => {
    const failures = [
      failure('healed', [
        {
          inputTokens: 100,
          outputTokens: 10,
          cacheReadTokens: 4000,
          cacheWriteTokens: 900,
          costUsd: 0.01,
          calls: 1,
        },
        { inputTokens: 50, outputTokens: 5, cacheReadTokens: 4100, costUsd: 0.002, calls: 2 },
      ]),
      failure('product-bug', [{ inputTokens: 7, outputTokens: 3, costUsd: 0.001, calls: 1 }]),
      failure('flaky', []),
    ];
    const t = projectTotals(undefined, failures);
    expect(t).toMatchObject({
      failures: 3,
      healed: 1,
      bugs: 1,
      stillFailing: 1,
      flaky: 1,
      llmCalls: 4,
      inputTokens: 157,
      outputTokens: 18,
      cacheReadTokens: 8100,
      cacheWriteTokens: 900,
    });
    expect(t.costUsd).toBeCloseTo(0.013, 9);
    const project = { totals: t } as ProjectReport;
    expect(sumTotals([project, project])).toMatchObject({
      llmCalls: 8,
      cacheReadTokens: 16200,
      cacheWriteTokens: 1800,
      costUsd: 0.026,
    });
    expect(projectStatus(failures)).toBe('failed_after_repair');
  });

  it('calls a project whose only failures were flaky completed, not healed: nothing was written', () => {
    expect(projectStatus([failure('flaky', [])])).toBe('completed');
    expect(projectStatus([failure('flaky', []), failure('healed', [])])).toBe('healed');
    expect(projectStatus([])).toBe('completed');
  });
});
