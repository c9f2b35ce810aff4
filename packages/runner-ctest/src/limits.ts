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
 * a test that ran past its limit before, whose duration is not known. `sibling`: another value
 * of the same parametrized test, or another test of the same binary, ran past its limit first.
 */
export type LimitSource = 'option' | 'derived' | 'declared' | 'cut' | 'sibling';

export interface TestLimit {
  /** null: no limit (testTimeoutMs 0). */
  ms: number | null;
  source: LimitSource;
  /** The duration a derived limit was computed from. */
  measuredMs?: number;
  /** For `sibling`: the test that ran past its limit first, and what it shares with this one. */
  after?: { id: string; scope: 'test' | 'binary' };
}

/**
 * What a test shares with its siblings: its GoogleTest test without the value of a TEST_P
 * instantiation (`Prefix/Suite.Name/3` is one value of `Prefix/Suite.Name`), and its binary.
 */
export interface Family {
  binary: string;
  test?: string;
}

/** The family of a test of `binary`, a GoogleTest case when `gtestName` is given. */
export function familyOf(binary: string, gtestName?: string): Family {
  if (gtestName === undefined) return { binary };
  return { binary, test: `${binary}\0${gtestName.replace(/^([^.]*\.[^/]*)\/[^/]+$/, '$1')}` };
}

/**
 * The tests of one run that ran past their limit, the first of each family. A test that starts
 * after one of its family did gets `rerunTimeoutMs` at most: when one value of a parametrized
 * test hangs, the others often hang too, and each would cost the whole limit again.
 */
export class HangMemory {
  private readonly tests = new Map<string, { id: string; at: number }>();
  private readonly binaries = new Map<string, { id: string; at: number }>();

  record(id: string, family: Family, at: number): void {
    if (family.test !== undefined && !this.tests.has(family.test)) this.tests.set(family.test, { id, at });
    if (!this.binaries.has(family.binary)) this.binaries.set(family.binary, { id, at });
  }

  /** The first of the family that ran past its limit before `since` (a test running beside it keeps its limit). */
  before(family: Family, since: number): TestLimit['after'] {
    const test = family.test === undefined ? undefined : this.tests.get(family.test);
    if (test && test.at <= since) return { id: test.id, scope: 'test' };
    const binary = this.binaries.get(family.binary);
    return binary && binary.at <= since ? { id: binary.id, scope: 'binary' } : undefined;
  }
}

/** A test's limit once `after` of its family ran past its own: `rerunTimeoutMs` at most. */
export function siblingLimit(
  options: ResolvedCtestOptions,
  limit: TestLimit,
  after: TestLimit['after'],
): TestLimit {
  if (!after || limit.ms === null || limit.source === 'declared' || options.rerunTimeoutMs >= limit.ms)
    return limit;
  return { ms: options.rerunTimeoutMs, source: 'sibling', after };
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
  if (limit.source === 'sibling' && limit.after) {
    const first =
      limit.after.scope === 'test'
        ? `another value of the same parametrized test, ${limit.after.id}, ran past its limit first`
        : `another test of the same binary, ${limit.after.id}, ran past its limit first`;
    return `ran past ${seconds(limit.ms!)}${where}, the limit a test gets once ${first} in this run (the runner option "rerunTimeoutMs"); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs" (${options.rerunTimeoutMs} now; at "testTimeoutMs" = ${options.testTimeoutMs} or above, every test gets the whole limit)`;
  }
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
