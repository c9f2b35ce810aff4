import type { Diagnostic, ProcessResult, RunStatus, TestResult } from '@suture/core';
import type { EventFold } from './events.js';

const FAILING = new Set<TestResult['status']>(['failed', 'error', 'timeout', 'crashed']);

/**
 * Why the last pytest process ended before pytest's own `sessionfinish`, or undefined when it
 * finished (or something else, a timeout or a spawn error, explains the end). pytest writes its
 * last event at `sessionfinish`; a process that exits before it did not end the way pytest ends,
 * whatever its exit code: code under test ended it (`os._exit`, a fork whose parent exits) or a
 * signal killed it. `restartLimit` is set when the runner stopped restarting after crashed tests.
 */
export function unfinishedReason(
  proc: ProcessResult,
  fold: EventFold,
  restartLimit?: number,
): string | undefined {
  if (proc.spawnError || proc.timedOut || proc.aborted) return undefined;
  if (fold.exitStatus !== undefined)
    // a session that says all is well before it ran all it collected was ended from inside
    return fold.exitStatus === 0 && fold.collected?.some((id) => !fold.tests.has(id))
      ? "pytest's session ended with exit status 0 before it ran every test it collected (pytest.exit() raised in a test or in the code under test)"
      : undefined;
  if (restartLimit !== undefined)
    return `pytest was restarted ${restartLimit} times after tests that ended its process, and the tests left did not run`;
  const how = proc.signal ? `was killed by ${proc.signal}` : `exited with code ${proc.exitCode}`;
  return `the pytest process ${how} before its session finished (pytest's sessionfinish never ran): something ended the process early (os._exit, a fork whose parent exits, a signal)`;
}

/**
 * The test a finished session left running: pytest started it, and the session ended before its
 * teardown (pytest.exit() or an interrupt raised in it). Without a result of its own it did not
 * pass; a failure it reported before stays.
 */
export function leftRunning(fold: EventFold): TestResult | undefined {
  const t = fold.exitStatus !== undefined && fold.running ? fold.tests.get(fold.running) : undefined;
  if (!t) return undefined;
  fold.running = undefined;
  if (t.status !== 'passed' && t.status !== 'skipped') return t;
  t.status = 'error';
  t.message = `pytest's session ended (exit status ${fold.exitStatus}) while this test ran, before it reported a result: pytest.exit() or an interrupt raised in it`;
  return t;
}

/**
 * The collected tests with no result, each failed with the reason the session gave none: pytest's
 * own list of what it would run, checked against what it reported.
 */
export function missingResults(fold: EventFold, reason: string): TestResult[] {
  const missing = (fold.collected ?? []).filter((id) => !fold.tests.has(id));
  return missing.map((id) => ({
    id,
    file: id.split('::')[0]!,
    status: 'crashed',
    message: `collected, but pytest reported no result for it: ${reason}`,
  }));
}

/**
 * A finished run's status from its results: passed only when every test that reported passed or
 * skipped, no error stopped a test file, and every collected test reported. An exit code of 0
 * proves nothing: code under test can exit 0 with failing tests behind it.
 */
export function statusFromResults(
  tests: readonly TestResult[],
  diagnostics: readonly Diagnostic[],
  collected: readonly string[] | undefined,
): RunStatus {
  if (tests.some((t) => FAILING.has(t.status))) return 'failed';
  if (diagnostics.some((d) => d.severity === 'error')) return 'failed';
  const reported = new Set(tests.map((t) => t.id));
  if (collected?.some((id) => !reported.has(id))) return 'failed';
  return 'passed';
}
