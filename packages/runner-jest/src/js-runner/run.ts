import { stripVTControlCharacters } from 'node:util';
import type { RunContext, RunResultInput, TestResult } from '@suture/core';
import { LINGER_MS } from './pass.js';

/** After this many tests stopped at their limit in one run, the rest of the suite is not run again. */
export const MAX_STOPPED = 5;
/** Each pass's output is a bounded tail already; together they are bounded the same way. */
export const OUTPUT_TAIL_CHARS = 256 * 1024;

/** The last lines of a tool's output, without its colours. */
export function tail(text: string, lines: number): string {
  return stripVTControlCharacters(text).trimEnd().split('\n').slice(-lines).join('\n');
}

/**
 * Durations (ms) of the tests a runner has seen, by id: the limits of a later re-run come from
 * them. `null` for a test a limit stopped before any run measured it.
 */
export type DurationMemory = Map<string, number | null>;

export interface RunStart {
  started: number;
  base: { selected: boolean };
  /** The result of a run that could not produce test results, with the command it was to run. */
  fail(error: string, command?: string): RunResultInput;
}

/** The clock and the error result of a run, started now; `command` is what `fail` names by default. */
export function startRun(ctx: RunContext, command: string): RunStart {
  const started = Date.now();
  const base = { selected: ctx.selection !== undefined };
  return {
    started,
    base,
    fail: (error, named = command) => ({
      ...base,
      status: 'error',
      tests: [],
      exitCode: null,
      command: named,
      durationMs: Date.now() - started,
      error,
    }),
  };
}

/**
 * Which results a run reports: all of them, or in a run of selected tests the selected ones, the
 * tests of a selected file and any test that did not skip (a selection the tool widened).
 */
export function wantedBy(
  selection: readonly string[] | undefined,
  fileOf: (id: string) => string,
): (t: TestResult) => boolean {
  return (t) =>
    !selection || selection.includes(t.id) || selection.includes(fileOf(t.id)) || t.status !== 'skipped';
}

/** The output tail of a run whose tool was stopped after its run ended, with what kept it and what finds it. */
export function lingerNote(output: string, tool: string, finder: string): string {
  return `${output}\n[suture] ${tool} was stopped ${LINGER_MS / 1000} s after its run ended: something kept Node running (a server, a timer, a connection); ${finder}`;
}

/** What cut a run short: the caller's abort, the wall-clock limit, or too many tests stopped at their limits. */
export interface CutShort {
  aborted: boolean;
  timedOut: boolean;
  cut?: 'time' | 'count' | undefined;
  stopped: number;
  timeoutMs: number;
}

/**
 * The `timeout` result of a run cut short, with the test that was running when it was (the
 * oldest still running: the one most likely to hold the run up) kept as a timeout of its own.
 */
export function cutShortResult(
  common: Omit<RunResultInput, 'status' | 'tests' | 'diagnostics' | 'error'>,
  tests: TestResult[],
  diagnostics: NonNullable<RunResultInput['diagnostics']>,
  why: CutShort,
  running?: { id: string; name: string; file: string; line?: number | undefined },
): RunResultInput {
  const reason = why.aborted
    ? 'the run was aborted'
    : why.timedOut || why.cut === 'time'
      ? `killed at the wall-clock limit of ${why.timeoutMs} ms (the project's "timeoutMs")`
      : `${why.stopped} tests were stopped at their limits; the rest of the suite was not run again`;
  const at = why.timedOut || why.aborted ? running : undefined;
  if (at && !tests.some((t) => t.id === at.id))
    tests.push({
      id: at.id,
      name: at.name,
      file: at.file,
      ...(at.line ? { line: at.line } : {}),
      status: 'timeout',
      message: `${reason} while this test was running`,
    });
  return {
    ...common,
    status: 'timeout',
    tests,
    diagnostics,
    error: at ? `${reason} while running ${at.id}` : reason,
  };
}
