/** Vitest's own default testTimeout. */
export const VITEST_DEFAULT_TIMEOUT_MS = 5_000;
/**
 * The default limit for a test that blocks its worker: Vitest's timer never fires while
 * synchronous code runs, so only this limit ends a `while (true) {}`. The Jest runner's figure,
 * measured on a real suite: its slowest synchronous tests took 9 s, which pass natively.
 */
export const BLOCKING_DEFAULT_MS = 30_000;
/** A re-run may take this many times what the test took when it last ran. */
export const RERUN_FACTOR = 10;
/** Outside any test (module top level, beforeAll, afterAll), a test file may spend this long at least. */
export const FILE_GAP_MIN_MS = 60_000;

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

export interface Limit {
  ms: number;
  /** Where the number comes from, for the message of a test stopped at it. */
  why: string;
}

/**
 * How long a test may run before the runner stops Vitest: above Vitest's own timeout, with a
 * grace for its timer to fire and its result to arrive, so that an async test keeps Vitest's own
 * message and the run goes on; only a test that blocks its worker reaches it.
 */
export function testLimit(inputs: LimitInputs): Limit {
  const own = inputs.option ?? inputs.vitestTimeout ?? VITEST_DEFAULT_TIMEOUT_MS;
  const after = own + Math.max(2_000, Math.round(own / 2));
  const full: Limit =
    inputs.option !== undefined || after >= BLOCKING_DEFAULT_MS
      ? { ms: after, why: `the test's timeout of ${own} ms, and a grace for Vitest's own timer` }
      : {
          ms: BLOCKING_DEFAULT_MS,
          why: "the default limit for a test that blocks its worker; Vitest's own timeout cannot stop synchronous code",
        };
  if (inputs.stoppedBefore)
    return after >= full.ms
      ? full
      : {
          ms: after,
          why: `a re-run of a test that ran past its limit before gets its timeout of ${own} ms and a grace for Vitest's own timer`,
        };
  if (inputs.lastDurationMs === undefined) return full;
  const rerun = Math.max(after, Math.round(RERUN_FACTOR * inputs.lastDurationMs));
  return rerun >= full.ms
    ? full
    : {
        ms: rerun,
        why: `a re-run may take ${RERUN_FACTOR} times the ${Math.round(inputs.lastDurationMs)} ms the test took before, at least its timeout of ${own} ms and a grace`,
      };
}

/** How long a test file may go without a test starting or ending in it. */
export function fileGapLimit(option: number | undefined): number {
  return Math.max(FILE_GAP_MIN_MS, 2 * testLimit({ ...(option !== undefined ? { option } : {}) }).ms);
}

/** The message of a test stopped at its limit: what happened and which option to raise. */
export function stoppedMessage(limit: Limit): string {
  return `did not finish within ${limit.ms} ms (${limit.why}); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "testTimeoutMs".`;
}
