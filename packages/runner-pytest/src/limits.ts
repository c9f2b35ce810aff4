import type { TimeoutInfo } from './event-schema.js';
import type { ResolvedPytestOptions } from './options.js';

/** A re-run gives each test this many times its measured duration. */
export const RERUN_FACTOR = 5;

/**
 * Durations measured by earlier runs of one runner instance (one project), by nodeid. A re-run
 * of selected tests sets its limits from them.
 */
export class DurationMemory {
  /** By nodeid; `null` for a test a limit cut short before any run measured it. */
  private readonly durations = new Map<string, number | null>();
  /** The longest setup of any test: fixtures of wider scope that a lone re-run pays again. */
  private longestSetupMs = 0;

  /**
   * What a run measured. The time of a test a limit cut short (`cut`) is not a duration: the test
   * keeps what an earlier run measured, or is marked as cut.
   */
  record(durations: Iterable<[string, number]>, setups: Iterable<number>, cut: Iterable<string> = []): void {
    for (const [id, ms] of durations) this.durations.set(id, ms);
    for (const id of cut) if (!this.durations.has(id)) this.durations.set(id, null);
    for (const ms of setups) this.longestSetupMs = Math.max(this.longestSetupMs, ms);
  }

  /** Whether a limit cut `id` short before any run measured it. */
  wasCut(id: string): boolean {
    return this.durations.get(id) === null;
  }

  /** What a re-run of `id` alone may take: its own time, or its fixtures' setup when longer. */
  measured(id: string): number | undefined {
    const own = this.durations.get(id);
    return own === undefined || own === null ? undefined : Math.max(own, this.longestSetupMs);
  }
}

export interface TestLimits {
  /** Seconds for a test without its own limit; null: no limit. */
  defaultS: number | null;
  /** Seconds per selected test whose duration was measured. */
  perTest: Record<string, number>;
  /** The measured durations behind `perTest`, in ms, for the messages. */
  measuredMs: Record<string, number>;
  /** Selected tests that ran past their limit before and were never measured: `perTest` holds `rerunTimeoutMs` for them. */
  cut: string[];
  /**
   * Seconds at most for a test once another case of its test function, or another test of its
   * file, reached its limit in this run; null when `rerunTimeoutMs` is no less than the limit.
   */
  rerunS: number | null;
}

/**
 * Per-test limits of a run: the configured one, or for a re-run one from each test's measured
 * time. A test that ran past its limit before and was never measured gets `rerunTimeoutMs`: the
 * re-run tells a hang that comes and goes from one that stays, and one that stays costs seconds,
 * not the whole limit again. Within a run, once a test reaches its limit, the other cases of its
 * test function and the other tests of its file get `rerunS` at most (the plugin applies it, as
 * only it sees which test reaches its limit when): one hang in a file often means all hang.
 */
export function testLimits(
  options: ResolvedPytestOptions,
  selection: readonly string[] | undefined,
  memory: DurationMemory,
): TestLimits {
  const limits: TestLimits = { defaultS: null, perTest: {}, measuredMs: {}, cut: [], rerunS: null };
  if (options.testTimeoutMs === 0) return limits;
  limits.defaultS = options.testTimeoutMs / 1000;
  if (options.rerunTimeoutMs < options.testTimeoutMs) limits.rerunS = options.rerunTimeoutMs / 1000;
  for (const id of selection ?? []) {
    if (memory.wasCut(id)) {
      if (options.rerunTimeoutMs >= options.testTimeoutMs) continue;
      limits.perTest[id] = options.rerunTimeoutMs / 1000;
      limits.cut.push(id);
      continue;
    }
    const measured = memory.measured(id);
    if (measured === undefined) continue;
    const ms = Math.max(options.rerunTimeoutMs, RERUN_FACTOR * measured);
    if (ms >= options.testTimeoutMs) continue;
    limits.perTest[id] = ms / 1000;
    limits.measuredMs[id] = measured;
  }
  return limits;
}

const seconds = (s: number): string => `${Number(s.toFixed(2))} s`;

/** The message of a test that reached its limit: where it was, which limit, and what to raise. */
export function describeTimeout(
  options: ResolvedPytestOptions,
  limits: TestLimits,
): (nodeid: string, info: TimeoutInfo) => string {
  return (nodeid, info) => {
    const where = info.where
      ? `; it was at ${info.where.file}:${info.where.line} in ${info.where.function}`
      : '';
    const stopped = info.hard
      ? ' It did not stop there, so its pytest process was ended and the tests after it ran in a new one.'
      : '';
    const limit = seconds(info.limitS);
    if (info.source === 'declared') {
      return `ran past ${limit}, the limit the project declares for it (@pytest.mark.timeout or pytest-timeout's "timeout" setting)${where}. If it needs longer, raise that value.${stopped}`;
    }
    if (info.source === 'sibling' && info.sibling?.repeated) {
      const family = info.sibling.scope === 'function' ? 'of the same test' : 'of the same file';
      return `ran past ${limit}, the limit a test gets once ${info.sibling.repeated} tests ${family}, the first ${info.sibling.nodeid}, ran past their limits in this run (a fifth of the runner option "rerunTimeoutMs", 1 s at least)${where}. If it needs longer, raise the runner option "rerunTimeoutMs" (${options.rerunTimeoutMs} now), or run it alone: it then gets its whole limit.${stopped}`;
    }
    if (info.source === 'sibling' && info.sibling) {
      const first =
        info.sibling.scope === 'function'
          ? `another case of the same test, ${info.sibling.nodeid}, ran past its limit first`
          : `another test of the same file, ${info.sibling.nodeid}, ran past its limit first`;
      return `ran past ${limit}, the limit a test gets once ${first} in this run (the runner option "rerunTimeoutMs")${where}. If it needs longer, raise the runner option "rerunTimeoutMs" (${options.rerunTimeoutMs} now; at "testTimeoutMs" = ${options.testTimeoutMs} or above, every test gets the whole limit).${stopped}`;
    }
    if (info.source === 'derived' && limits.cut.includes(nodeid)) {
      return `ran past ${limit}, the limit of this re-run of a test that ran past its limit before (the runner option "rerunTimeoutMs")${where}. If it needs longer, raise the runner option "rerunTimeoutMs".${stopped}`;
    }
    if (info.source === 'derived') {
      const measured = limits.measuredMs[nodeid];
      const earlier = measured === undefined ? '' : ` of ${seconds(measured / 1000)}`;
      return `ran past ${limit}, the limit of this re-run (${RERUN_FACTOR}x its earlier duration${earlier}, at least the runner option "rerunTimeoutMs" = ${options.rerunTimeoutMs}, at most "testTimeoutMs" = ${options.testTimeoutMs})${where}. If it needs longer, raise the runner option "rerunTimeoutMs".${stopped}`;
    }
    return `ran past the per-test limit of ${limit}${where}. If it needs longer, raise the runner option "testTimeoutMs" (${options.testTimeoutMs} now; 0 turns the limit off).${stopped}`;
  };
}
