import { GateReportSchema, type GateReport } from '../api/contracts/report.js';

/** A realistic two-project report used by the reporter tests. */
export function sampleReport(overrides: Partial<GateReport> = {}): GateReport {
  const failureBase = { blocksAll: false, frames: [], repairable: true, diagnostics: [], details: {} };
  return GateReportSchema.parse({
    schemaVersion: 1,
    runId: '20261122-120000-abcd',
    root: '/repo',
    startedAt: '2026-11-22T12:00:00.000Z',
    finishedAt: '2026-11-22T12:00:05.000Z',
    durationMs: 5000,
    mode: 'check',
    patch: 'diff --git a/py/inv.py b/py/inv.py\n--- a/py/inv.py\n+++ b/py/inv.py\n@@ -1 +1 @@\n-x = totl\n+x = total\n',
    conflicts: [],
    exitCode: 1,
    runDir: '/repo/.suture/runs/20261122-120000-abcd',
    totals: { tests: 5, passed: 3, failed: 2, skipped: 0, failures: 3, healed: 1, stillFailing: 2, bugs: 1, flaky: 0, llmCalls: 2, inputTokens: 1200, outputTokens: 300, cacheReadTokens: 5000, cacheWriteTokens: 0, costUsd: 0.0123 },
    projects: [
      {
        name: 'py',
        root: 'py',
        runner: '@suture/runner-pytest',
        status: 'failed_after_repair',
        durationMs: 3000,
        totals: { tests: 4, passed: 2, failed: 2, skipped: 0, failures: 2, healed: 1, stillFailing: 1, bugs: 1, flaky: 0, llmCalls: 2, inputTokens: 1200, outputTokens: 300, cacheReadTokens: 5000, cacheWriteTokens: 0, costUsd: 0.0123 },
        rounds: [
          {
            kind: 'initial',
            status: 'failed',
            command: 'python3 -m pytest',
            durationMs: 900,
            tests: [
              { id: 'tests/test_a.py::test_ok', file: 'tests/test_a.py', line: 3, status: 'passed', durationMs: 2 },
              { id: 'tests/test_a.py::test_typo', file: 'tests/test_a.py', line: 7, status: 'failed', message: "NameError: name 'totl' is not defined", trace: 'E NameError\x1b[31m red\x00' },
              { id: 'tests/test_a.py::test_logic', file: 'tests/test_a.py', line: 11, status: 'failed', message: 'assert 9 == 10' },
              { id: 'tests/test_a.py::test_skip', status: 'skipped', message: 'not today' },
            ],
            failures: ['py:abc', 'py:def'],
          },
        ],
        failures: [
          {
            outcome: 'healed',
            failure: { ...failureBase, id: 'py:abc', kind: 'exception', title: "NameError: name 'totl' is not defined", tests: ['tests/test_a.py::test_typo'], location: { file: 'inv.py', line: 1, symbol: 'total' }, evidence: 'NameError', fingerprint: 'abc' },
            attempts: [
              { attempt: 1, fixer: '@suture/fixer-hints', verdict: 'healed', rationale: 'spelling', diff: '--- a/inv.py\n+++ b/inv.py\n@@ -1 +1 @@\n-x = totl\n+x = total\n', expectationChanged: true, durationMs: 10, startedAt: '2026-11-22T12:00:01.000Z', validation: { passed: true } },
            ],
          },
          {
            outcome: 'product-bug',
            failure: { ...failureBase, id: 'py:def', kind: 'assertion', title: 'assert 9 == 10', tests: ['tests/test_a.py::test_logic'], evidence: 'assert 9 == 10', fingerprint: 'def' },
            bug: { summary: 'discount is off by one', expected: '10', actual: '9', evidence: 'assert 9 == 10', file: 'inv.py' },
            attempts: [
              { attempt: 1, fixer: '@suture/llm-claude-cli', verdict: 'refused', reason: 'edit outside the scope: setup.py | not allowed', durationMs: 5, startedAt: '2026-11-22T12:00:02.000Z', usage: { costUsd: 0.01, calls: 1 } },
              { attempt: 2, fixer: '@suture/llm-claude-cli', verdict: 'product-bug', durationMs: 5, startedAt: '2026-11-22T12:00:03.000Z', usage: { costUsd: 0.0023, calls: 1 } },
            ],
          },
        ],
      },
      {
        name: 'cpp',
        root: 'cpp',
        runner: '@suture/runner-ctest',
        status: 'failed',
        durationMs: 2000,
        totals: { tests: 0, passed: 0, failed: 0, skipped: 0, failures: 1, healed: 0, stillFailing: 1, bugs: 0, flaky: 0, llmCalls: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, costUsd: 0 },
        rounds: [{ kind: 'initial', status: 'failed', command: 'cmake --build', durationMs: 2000, tests: [] }],
        failures: [
          {
            outcome: 'exhausted',
            reason: 'no fixer could repair it',
            failure: { ...failureBase, id: 'cpp:b1', kind: 'build', blocksAll: true, title: "'vector' is not a member of 'std'", tests: [], evidence: "lib.cpp:4:8: error: 'vector' is not a member of 'std'", fingerprint: 'b1' },
            attempts: [],
          },
        ],
      },
    ],
    ...overrides,
  });
}
