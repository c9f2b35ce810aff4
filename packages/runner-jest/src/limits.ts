import * as shared from './js-runner/limits.js';

export {
  BLOCKING_DEFAULT_MS,
  FILE_GAP_MIN_MS,
  RERUN_FACTOR,
  stoppedMessage,
  type Limit,
} from './js-runner/limits.js';

/** Jest's own default testTimeout. */
export const JEST_DEFAULT_TIMEOUT_MS = 5_000;
const JEST: shared.TimeoutTool = { name: 'Jest', defaultTimeoutMs: JEST_DEFAULT_TIMEOUT_MS };

export interface LimitInputs extends Omit<shared.LimitInputs, 'toolTimeout'> {
  /** Jest's testTimeout as the run resolved it (the project config's, or Jest's default). */
  jestTimeout?: number | undefined;
}

const toShared = ({ jestTimeout, ...rest }: LimitInputs): shared.LimitInputs => ({
  ...rest,
  toolTimeout: jestTimeout,
});

/** How long a Jest test may run before the runner stops Jest (the shared limits, in Jest's words). */
export function testLimit(inputs: LimitInputs): shared.Limit {
  return shared.testLimit(toShared(inputs), JEST);
}

/** How long a test file may go without a test running in it. */
export function fileGapLimit(inputs: LimitInputs): number {
  return shared.fileGapLimit(toShared(inputs), JEST);
}
