import type { RunResult } from '../api/contracts/run-result.js';

/**
 * The tests a run was expected to report and did not. A runner whose process ends early (an
 * `os._exit(0)` or `std::exit(0)` in the code under test) can exit 0 having run only some of the
 * tests; the exit code proves nothing, a completed result per test does.
 */
export function missingTests(expected: Iterable<string>, result: RunResult): string[] {
  const seen = new Set(result.tests.map((t) => t.id));
  return [...new Set(expected)].filter((id) => !seen.has(id));
}

/** Why a run that left tests out cannot count as green, for reports and reverts. */
export function missingReason(missing: readonly string[], expected: number, reported: number): string {
  const named =
    missing.length <= 5
      ? missing.join(', ')
      : `${missing.slice(0, 5).join(', ')} and ${missing.length - 5} more`;
  return `the run reported ${reported} of the ${expected} tests it should have run; ${named} did not report a result (the test process ended early)`;
}
