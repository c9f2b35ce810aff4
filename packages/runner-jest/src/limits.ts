/** Jest's own default testTimeout. */
export const JEST_DEFAULT_TIMEOUT_MS = 5_000;
/**
 * The default limit for a test that blocks its worker. Jest never stops synchronous code, so
 * only this limit ends a `while (true) {}`. Measured on trekhleb/javascript-algorithms (587
 * tests, Jest 30, a loaded two-core machine): median 16 ms, 99th percentile 1.2 s, and the slowest
 * two, both synchronous, 3.6 s and 9.0 s, which pass natively since Jest's 5 s timeout does not
 * reach synchronous code. 30 s leaves those a threefold margin and still ends a hang in well
 * under a minute.
 */
export const BLOCKING_DEFAULT_MS = 30_000;
/** A re-run may take this many times what the test took when it last ran. */
export const RERUN_FACTOR = 10;
/** Outside any test (module top level, beforeAll, afterAll), Jest may spend this long at least. */
export const FILE_GAP_MIN_MS = 60_000;

export interface LimitInputs {
  /** The runner option testTimeoutMs. */
  option?: number;
  /** Jest's testTimeout as the run resolved it (the project config's, or Jest's default). */
  jestTimeout?: number;
  /** The longest timeout the test's file declares. */
  declared?: number;
  /** How long the test took when this runner last ran it, for a re-run of selected tests. */
  lastDurationMs?: number;
  /** In a re-run of selected tests: a limit stopped this test before, and no run measured it. */
  stoppedBefore?: boolean;
}

export interface Limit {
  ms: number;
  /** Where the number comes from, for the message of a test stopped at it. */
  why: string;
}

/**
 * How long a test may run before the runner stops Jest. Above Jest's own timeout (with a grace
 * for its timer to fire and its result to arrive), so that an async test keeps Jest's message and
 * the run goes on; only a test whose worker is blocked reaches it.
 */
export function testLimit(inputs: LimitInputs): Limit {
  const jest = Math.max(inputs.option ?? inputs.jestTimeout ?? JEST_DEFAULT_TIMEOUT_MS, inputs.declared ?? 0);
  const afterJest = jest + Math.max(2_000, Math.round(jest / 2));
  const full: Limit =
    inputs.option !== undefined || afterJest >= BLOCKING_DEFAULT_MS
      ? { ms: afterJest, why: `the test's timeout of ${jest} ms, and a grace for Jest's own timer` }
      : {
          ms: BLOCKING_DEFAULT_MS,
          why: "the default limit for a test that blocks its worker; Jest's own timeout cannot stop synchronous code",
        };
  // A re-run of a test that blocked its worker tells a hang that comes and goes from one that
  // stays; one that stays costs the test's own timeout, not the whole blocking limit again.
  if (inputs.stoppedBefore)
    return afterJest >= full.ms
      ? full
      : {
          ms: afterJest,
          why: `a re-run of a test that ran past its limit before gets its timeout of ${jest} ms and a grace for Jest's own timer`,
        };
  if (inputs.lastDurationMs === undefined) return full;
  const rerun = Math.max(afterJest, Math.round(RERUN_FACTOR * inputs.lastDurationMs));
  return rerun >= full.ms
    ? full
    : {
        ms: rerun,
        why: `a re-run may take ${RERUN_FACTOR} times the ${Math.round(inputs.lastDurationMs)} ms the test took before, at least its timeout of ${jest} ms and a grace`,
      };
}

/** How long a test file may go without a test running in it. */
export function fileGapLimit(inputs: LimitInputs): number {
  return Math.max(FILE_GAP_MIN_MS, 2 * testLimit({ ...inputs, lastDurationMs: undefined }).ms);
}

/** The message of a test stopped at its limit: what happened and which option to raise. */
export function stoppedMessage(limit: Limit): string {
  return `did not finish within ${limit.ms} ms (${limit.why}); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "testTimeoutMs".`;
}
