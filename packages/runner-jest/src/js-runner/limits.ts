/**
 * The default limit for a test that blocks its worker. Neither Jest nor Vitest stops synchronous
 * code, so only this limit ends a `while (true) {}`. Measured on trekhleb/javascript-algorithms
 * (587 tests, Jest 30, a loaded two-core machine): median 16 ms, 99th percentile 1.2 s, and the
 * slowest two, both synchronous, 3.6 s and 9.0 s, which pass natively since a 5 s timeout does not
 * reach synchronous code. 30 s leaves those a threefold margin and still ends a hang in well
 * under a minute.
 */
export const BLOCKING_DEFAULT_MS = 30_000;
/** A re-run may take this many times what the test took when it last ran. */
export const RERUN_FACTOR = 10;
/** Outside any test (module top level, beforeAll, afterAll), a test file may spend this long at least. */
export const FILE_GAP_MIN_MS = 60_000;

/** The test tool whose timeout the limits sit above, as its messages name it. */
export interface TimeoutTool {
  /** `Jest`, `Vitest`. */
  name: string;
  /** The tool's own default testTimeout. */
  defaultTimeoutMs: number;
}

export interface LimitInputs {
  /** The runner option testTimeoutMs. */
  option?: number | undefined;
  /** The tool's timeout for the test as the run resolved it (the project config's, or the tool's default). */
  toolTimeout?: number | undefined;
  /** The longest timeout the test's file declares. */
  declared?: number | undefined;
  /** How long the test took when this runner last ran it, for a re-run of selected tests. */
  lastDurationMs?: number | undefined;
  /** In a re-run of selected tests: a limit stopped this test before, and no run measured it. */
  stoppedBefore?: boolean | undefined;
}

export interface Limit {
  ms: number;
  /** Where the number comes from, for the message of a test stopped at it. */
  why: string;
  /** Set for the shorter limit of a test whose sibling (`after`, by id) ran past its limit first in the run. */
  sibling?: {
    after: string;
    scope: 'each' | 'file';
    wholeMs: number;
    /** The runner option `rerunTimeoutMs` this limit comes from. */
    rerunMs?: number;
    /** Set once this many tests of the family ran past their limits: the limit is a fifth of `rerunMs`. */
    repeated?: number;
  };
}

/**
 * How long a test may run before the runner stops the tool. Above the tool's own timeout (with a
 * grace for its timer to fire and its result to arrive), so that an async test keeps the tool's
 * message and the run goes on; only a test whose worker is blocked reaches it.
 */
export function testLimit(inputs: LimitInputs, tool: TimeoutTool): Limit {
  const own = Math.max(inputs.option ?? inputs.toolTimeout ?? tool.defaultTimeoutMs, inputs.declared ?? 0);
  const after = own + Math.max(2_000, Math.round(own / 2));
  const full: Limit =
    inputs.option !== undefined || after >= BLOCKING_DEFAULT_MS
      ? { ms: after, why: `the test's timeout of ${own} ms, and a grace for ${tool.name}'s own timer` }
      : {
          ms: BLOCKING_DEFAULT_MS,
          why: `the default limit for a test that blocks its worker; ${tool.name}'s own timeout cannot stop synchronous code`,
        };
  // A re-run of a test that blocked its worker tells a hang that comes and goes from one that
  // stays; one that stays costs the test's own timeout, not the whole blocking limit again.
  if (inputs.stoppedBefore)
    return after >= full.ms
      ? full
      : {
          ms: after,
          why: `a re-run of a test that ran past its limit before gets its timeout of ${own} ms and a grace for ${tool.name}'s own timer`,
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

/** How long a test file may go without a test running in it. */
export function fileGapLimit(inputs: LimitInputs, tool: TimeoutTool): number {
  return Math.max(FILE_GAP_MIN_MS, 2 * testLimit({ ...inputs, lastDurationMs: undefined }, tool).ms);
}

/** The message of a test stopped at its limit: what happened and which option to raise. */
export function stoppedMessage(limit: Limit): string {
  if (limit.sibling?.repeated)
    return `did not finish within ${limit.ms} ms (${limit.why}); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "rerunTimeoutMs" (${limit.sibling.rerunMs} now), or run it alone: it then gets its whole limit of ${limit.sibling.wholeMs} ms.`;
  if (limit.sibling)
    return `did not finish within ${limit.ms} ms (${limit.why}); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "rerunTimeoutMs" (${limit.ms} now; at ${limit.sibling.wholeMs} or above, the test gets its whole limit of ${limit.sibling.wholeMs} ms).`;
  return `did not finish within ${limit.ms} ms (${limit.why}); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "testTimeoutMs".`;
}
