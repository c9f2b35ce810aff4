import { FixRequestSchema, type AttemptSummary, type FixRequest } from '@suture/core';

/** A fix request as the engine builds it for a failing pytest assertion. */
export function fixRequest(over: Partial<FixRequest> = {}): FixRequest {
  return FixRequestSchema.parse({
    project: { name: 'shop', root: '/repo/shop', language: 'python' },
    failure: {
      id: 'shop:f1',
      kind: 'assertion',
      title: 'AssertionError: assert 0 == 0.1',
      tests: ['tests/test_pricing.py::test_discount_at_ten_units'],
      location: { file: 'tests/test_pricing.py', line: 5, symbol: 'test_discount_at_ten_units' },
      frames: [{ file: 'shop/pricing.py', line: 3, symbol: 'discount' }],
      evidence: '>       assert discount(10) == 0.1\nE       assert 0 == 0.1\n\ntests/test_pricing.py:5: AssertionError',
      fingerprint: 'f1',
      repairable: true,
    },
    scope: { entries: [{ file: 'shop/pricing.py', symbols: ['discount'], role: 'source', reasons: ['called by the test (depth 1)'] }] },
    sources: [{ file: 'shop/pricing.py', startLine: 1, endLine: 4, text: 'def discount(units):\n    if units > 10:\n        return 0.1\n    return 0\n', reason: 'called by the test' }],
    history: [],
    policy: { editable: 'both', allowedPaths: ['**'], deniedPaths: [], allowTestWeakening: false, allowNewFiles: false, maxFilesPerAttempt: 5 },
    attempt: 1,
    maxAttempts: 3,
    tokenBudget: 12000,
    ...over,
  });
}

/** What the engine records after a patch that did not make the tests pass. */
export function failedAttempt(attempt: number, outcome: string): AttemptSummary {
  return {
    attempt,
    fixer: '@suture/llm-claude-cli',
    verdict: 'failed-validation',
    rationale: 'the discount is too small',
    diff: '--- a/shop/pricing.py\n+++ b/shop/pricing.py\n@@ -3 +3 @@\n-        return 0.1\n+        return 0.15\n',
    outcome,
  };
}
