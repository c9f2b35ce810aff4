import type { ResolvedCtestOptions } from './options.js';

/** A re-run gives each test this many times its measured duration. */
export const RERUN_FACTOR = 5;

/** What a reader of a run cut by its wall-clock limit can change. */
export const runLimitHint = 'raise "timeoutMs" in the suture config (per project or at the top)';

/**
 * Durations measured by earlier runs of one runner instance (one project), by test id; `null` for
 * a test that a limit cut short before any run measured it.
 */
export type DurationMemory = Map<string, number | null>;

/**
 * Where a test's limit comes from, for the message that names what to raise. `cut`: a re-run of
 * a test that ran past its limit before, whose duration is not known.
 */
export type LimitSource = 'option' | 'derived' | 'declared' | 'cut';

export interface TestLimit {
  /** null: no limit (testTimeoutMs 0). */
  ms: number | null;
  source: LimitSource;
  /** The duration a derived limit was computed from. */
  measuredMs?: number;
}

/**
 * The limit of one test: `testTimeoutMs`, or in a re-run of selected tests one from the duration
 * this runner measured before (5x, at least `rerunTimeoutMs`, at most `testTimeoutMs`). A test
 * that ran past its limit before and was never measured gets `rerunTimeoutMs`: the re-run tells
 * a hang that comes and goes from one that stays, and one that stays costs seconds, not the whole
 * limit again.
 */
export function testLimit(
  options: ResolvedCtestOptions,
  id: string,
  rerun: boolean,
  memory: DurationMemory,
): TestLimit {
  const option: TestLimit = { ms: options.testTimeoutMs, source: 'option' };
  if (options.testTimeoutMs === 0) return { ms: null, source: 'option' };
  const measured = rerun ? memory.get(id) : undefined;
  if (measured === undefined) return option;
  if (measured === null)
    return options.rerunTimeoutMs < options.testTimeoutMs
      ? { ms: options.rerunTimeoutMs, source: 'cut' }
      : option;
  const ms = Math.max(options.rerunTimeoutMs, RERUN_FACTOR * measured);
  return ms >= options.testTimeoutMs ? option : { ms, source: 'derived', measuredMs: measured };
}

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(2))} s`;

/**
 * The message of a test stopped at its limit: which limit, where it was, and what to raise.
 * `running` names the GoogleTest case a whole test binary was in.
 */
export function timeoutMessage(options: ResolvedCtestOptions, limit: TestLimit, running?: string): string {
  const where = running ? ` in the GoogleTest case ${running}` : '';
  if (limit.source === 'declared')
    return `ran past ${limit.ms === null ? 'the limit' : seconds(limit.ms)}${where}, the TIMEOUT property the project sets on this CTest entry (set_tests_properties(... PROPERTIES TIMEOUT ...)); if it needs longer, raise that value`;
  if (limit.source === 'cut')
    return `ran past ${seconds(limit.ms!)}${where}, the limit of this re-run of a test that ran past its limit before (the runner option "rerunTimeoutMs"); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs"`;
  if (limit.source === 'derived')
    return `ran past ${seconds(limit.ms!)}${where}, the limit of this re-run (${RERUN_FACTOR}x its earlier duration of ${seconds(limit.measuredMs!)}, at least the runner option "rerunTimeoutMs" = ${options.rerunTimeoutMs}, at most "testTimeoutMs" = ${options.testTimeoutMs}); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs"`;
  return `ran past the per-test limit of ${seconds(limit.ms ?? options.testTimeoutMs)}${where}; suture stopped it. If it needs longer, raise the runner option "testTimeoutMs" (${options.testTimeoutMs} now; 0 turns the limit off)`;
}

/**
 * Remembers what a run measured, for the limits of later re-runs. The time of a test a limit cut
 * short is not a duration: the test keeps what an earlier run measured, or is marked as cut. Nor
 * is the time of a test that failed: a test that fails at its first check takes a fraction of
 * what it takes once fixed, so its re-run (a fix's validation) keeps the limit the failing run
 * had, or what an earlier pass measured.
 */
export function remember(
  memory: DurationMemory,
  tests: ReadonlyArray<{ id: string; status: string; durationMs?: number | undefined }>,
): void {
  for (const t of tests) {
    if (t.status === 'timeout') {
      if (!memory.has(t.id)) memory.set(t.id, null);
    } else if (t.durationMs !== undefined && t.status === 'passed') memory.set(t.id, t.durationMs);
  }
}
