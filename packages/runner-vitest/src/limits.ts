import * as shared from '@suture/runner-jest/js-runner';

export {
  BLOCKING_DEFAULT_MS,
  FILE_GAP_MIN_MS,
  RERUN_FACTOR,
  stoppedMessage,
  type Limit,
} from '@suture/runner-jest/js-runner';

/** Vitest's own default testTimeout. */
export const VITEST_DEFAULT_TIMEOUT_MS = 5_000;
const VITEST: shared.TimeoutTool = { name: 'Vitest', defaultTimeoutMs: VITEST_DEFAULT_TIMEOUT_MS };

export interface LimitInputs {
  /** The runner option testTimeoutMs. */
  option?: number;
  /** The timeout Vitest gives the test (its own, or the project's testTimeout). */
  vitestTimeout?: number;
  /** How long the test took when this runner last ran it, for a re-run of selected tests. */
  lastDurationMs?: number;
  /** In a re-run of selected tests: a limit stopped this test before, and no run measured it. */
  stoppedBefore?: boolean;
}

/** How long a Vitest test may run before the runner stops Vitest (the shared limits, in Vitest's words). */
export function testLimit({ vitestTimeout, ...rest }: LimitInputs): shared.Limit {
  return shared.testLimit({ ...rest, toolTimeout: vitestTimeout }, VITEST);
}

/** How long a test file may go without a test starting or ending in it. */
export function fileGapLimit(option: number | undefined): number {
  return shared.fileGapLimit({ option }, VITEST);
}
