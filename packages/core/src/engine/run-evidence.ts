import type { RunResult, RunStatus, TestResult, TestStatus } from '../api/contracts/run-result.js';

/** A runner's status that its own results contradict, and what the results show instead. */
export interface StatusCorrection {
  /** The status the runner returned. */
  from: RunStatus;
  status: RunStatus;
  reason: string;
}

const FAILING: ReadonlySet<TestStatus> = new Set(['failed', 'error', 'timeout', 'crashed']);

function named(ids: readonly string[]): string {
  return ids.length <= 3 ? ids.join(', ') : `${ids.slice(0, 3).join(', ')} and ${ids.length - 3} more`;
}

/**
 * Checks a runner's `passed` against the evidence of the run: the tests' own results and how
 * many tests the runner collected. An exit code (or a runner that trusts one) says `passed` when
 * the code under test ends the process early, forks and exits in the parent, or a report is cut
 * short; the results say what ran. Returns the correction, or undefined when the status stands.
 * Only `passed` is corrected: a runner that says a run failed is believed.
 *
 * @param selection the tests the run was asked to run, when the runner honoured a selection.
 */
export function correctStatus(
  result: RunResult,
  selection?: readonly string[],
): StatusCorrection | undefined {
  if (result.status !== 'passed') return undefined;
  const fail = (reason: string): StatusCorrection => ({ from: 'passed', status: 'failed', reason });
  const failing = result.tests.filter((t) => FAILING.has(t.status)).map((t) => `${t.id} (${t.status})`);
  if (failing.length > 0)
    return fail(
      `the runner said the run passed, but its results hold ${failing.length} failing test(s): ${named(failing)}`,
    );
  const reported = new Set(result.tests.map((t) => t.id)).size;
  if (result.collected !== undefined && reported < result.collected)
    return fail(
      `the runner said the run passed, but reported ${reported} result(s) of the ${result.collected} test(s) it collected; the others never reported one (the test process ended early?)`,
    );
  if (reported === 0 && result.selected && selection && selection.length > 0)
    return fail(
      `the runner said the run passed, but reported no result for the ${selection.length} test(s) it was asked to run`,
    );
  return undefined;
}

/**
 * Why a test of a failure that did not pass in a run is not healed: its own message when it
 * failed. A test that failed and now skips (an xfail, a skip raised on the way, a test filtered
 * out) proves nothing about the fix: only a pass heals it.
 */
export function notHealedReason(test: TestResult | undefined): string | undefined {
  if (!test) return 'did not run';
  if (test.status !== 'skipped') return test.message;
  const said = test.message?.trim();
  const how =
    said === 'xfail' ? 'ended xfailed (expected to fail)' : `was skipped${said ? ` (${said})` : ''}`;
  return `${how}: a test that failed is healed only when it runs and passes`;
}
