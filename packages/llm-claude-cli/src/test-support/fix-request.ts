import type { AttemptSummary } from '@suture/core';

/** What the engine records after a patch to the sample request's discount that did not make the tests pass. */
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
