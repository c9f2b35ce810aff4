import type { ResolvedCtestOptions } from './options.js';

/** A re-run gives each test this many times its measured duration. */
export const RERUN_FACTOR = 5;

/** What a reader of a run cut by its wall-clock limit can change. */
export const runLimitHint = 'raise "timeoutMs" in the suture config (per project or at the top)';

/** Durations measured by earlier runs of one runner instance (one project), by test id. */
export type DurationMemory = Map<string, number>;

/** Where a test's limit comes from, for the message that names what to raise. */
export type LimitSource = 'option' | 'derived' | 'declared';

export interface TestLimit {
  /** null: no limit (testTimeoutMs 0). */
  ms: number | null;
  source: LimitSource;
  /** The duration a derived limit was computed from. */
  measuredMs?: number;
}

/**
 * The limit of one test: `testTimeoutMs`, or in a re-run of selected tests one from the duration
 * this runner measured before (5x, at least `rerunTimeoutMs`, at most `testTimeoutMs`).
 */
export function testLimit(
  options: ResolvedCtestOptions,
  id: string,
  rerun: boolean,
  memory: DurationMemory,
): TestLimit {
  if (options.testTimeoutMs === 0) return { ms: null, source: 'option' };
  const measured = rerun ? memory.get(id) : undefined;
  if (measured === undefined) return { ms: options.testTimeoutMs, source: 'option' };
  const ms = Math.max(options.rerunTimeoutMs, RERUN_FACTOR * measured);
  return ms >= options.testTimeoutMs
    ? { ms: options.testTimeoutMs, source: 'option' }
    : { ms, source: 'derived', measuredMs: measured };
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
  if (limit.source === 'derived')
    return `ran past ${seconds(limit.ms!)}${where}, the limit of this re-run (${RERUN_FACTOR}x its earlier duration of ${seconds(limit.measuredMs!)}, at least the runner option "rerunTimeoutMs" = ${options.rerunTimeoutMs}, at most "testTimeoutMs" = ${options.testTimeoutMs}); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs"`;
  return `ran past the per-test limit of ${seconds(limit.ms ?? options.testTimeoutMs)}${where}; suture stopped it. If it needs longer, raise the runner option "testTimeoutMs" (${options.testTimeoutMs} now; 0 turns the limit off)`;
}

/** Remembers what a run measured, for the limits of later re-runs (not what a limit cut short). */
export function remember(
  memory: DurationMemory,
  tests: ReadonlyArray<{ id: string; status: string; durationMs?: number | undefined }>,
): void {
  for (const t of tests)
    if (t.durationMs !== undefined && t.status !== 'timeout' && t.status !== 'error')
      memory.set(t.id, t.durationMs);
}
