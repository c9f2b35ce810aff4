import type { RunResult, TestResult } from '../api/contracts/run-result.js';

/** What a test the cancel cut short says of itself in the report. */
export const NOT_FINISHED = 'not finished: cancelled';

const FAILING = new Set<TestResult['status']>(['failed', 'error', 'timeout', 'crashed']);

/** A test the runner reports as timed out or killed: what the cancel's stop looks like to it. */
function cutShort(test: TestResult): TestResult {
  if (test.status !== 'timeout' && test.status !== 'crashed') return test;
  const { trace: _trace, details: _details, ...rest } = test;
  return { ...rest, status: 'skipped', message: NOT_FINISHED };
}

/**
 * A run the user cancelled (Ctrl-C, SIGTERM, the dashboard) as the report keeps it: the tests it
 * stopped did not fail, they did not finish, so they are skipped with that reason and no failure
 * group is made of them; a test that failed before the cancel still failed. The run's status
 * follows its tests, as no time limit was hit.
 */
export function cancelledRun(result: RunResult): RunResult {
  const tests = result.tests.map(cutShort);
  if (result.status === 'error') return { ...result, tests };
  return { ...result, tests, status: tests.some((t) => FAILING.has(t.status)) ? 'failed' : 'passed' };
}

/** The reason the gate's signal carries when the user cancelled (not when a plugin's exit stopped it). */
export const CANCELLED = 'suture: the run was cancelled';

/** The gate was stopped by the user: Ctrl-C, SIGTERM or the dashboard, through the caller's signal. */
export function wasCancelled(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === CANCELLED;
}

/** The exit code of a cancelled run, as a shell gives a process ended by Ctrl-C (128 + SIGINT). */
export const EXIT_CANCELLED = 130;
