import type { Failure } from '../api/contracts/failure.js';
import type { FailureReport } from '../api/contracts/report.js';
import type { RunResult } from '../api/contracts/run-result.js';
import type { RoundRunner } from './rounds.js';
import type { GateProject } from './types.js';

/** How the tests stand on the tree the run leaves behind. */
export interface FinalState {
  /** Test id -> passed, for every test a final run reported. */
  tests: Map<string, boolean>;
  /** Set when the whole suite ran on the final tree: whether it passed and the fingerprints it showed. */
  full?: { passed: boolean; fingerprints: Set<string> };
}

/** Outcomes that leave a failure group failing when the run ends. */
export const STILL_FAILING: ReadonlySet<FailureReport['outcome']> = new Set([
  'exhausted',
  'unfixable',
  'product-bug',
  'reverted',
]);

function addRun(state: FinalState, result: RunResult): void {
  for (const t of result.tests) state.tests.set(t.id, t.status === 'passed');
}

/** Whether a failure's tests pass on the final tree; undefined when no final run shows them. */
export function passesFinally(failure: Failure, state: FinalState): boolean | undefined {
  if (failure.blocksAll || failure.tests.length === 0) {
    if (!state.full) return undefined;
    return state.full.passed && !state.full.fingerprints.has(failure.fingerprint);
  }
  const seen = failure.tests.map((id) => state.tests.get(id));
  if (seen.some((s) => s === undefined)) return undefined;
  return seen.every(Boolean);
}

/**
 * The final state for the failure groups still failing (or relying on a heal): the regression
 * run's results where they cover them, and a targeted re-run (the whole suite when the runner
 * cannot select, or a group has no tests of its own) for the rest. No run when nothing is left to
 * check.
 */
export async function finalState(
  project: GateProject,
  rounds: RoundRunner,
  toCheck: readonly Failure[],
  fullRun?: { result: RunResult; failures: Failure[] },
): Promise<FinalState> {
  const state: FinalState = { tests: new Map() };
  if (fullRun) {
    addRun(state, fullRun.result);
    state.full = {
      passed: fullRun.result.status === 'passed',
      fingerprints: new Set(fullRun.failures.map((f) => f.fingerprint)),
    };
  }
  const open = toCheck.filter((f) => passesFinally(f, state) === undefined);
  if (open.length === 0) return state;
  const whole = !project.runner.supportsSelection || open.some((f) => f.blocksAll || f.tests.length === 0);
  if (whole && state.full) return state;
  const selection = whole ? undefined : [...new Set(open.flatMap((f) => f.tests))];
  const result = await rounds.run('recheck', selection);
  addRun(state, result);
  if (whole) {
    const failures = (await rounds.analyze(result)).failures;
    state.full = {
      passed: result.status === 'passed',
      fingerprints: new Set(failures.map((f) => f.fingerprint)),
    };
  }
  return state;
}
