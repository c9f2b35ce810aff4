import { writeFile } from 'node:fs/promises';
import { runProcess, type ProcessResult } from '@suture/core';
import { CAPTURE_BOUND_MS } from './stuck.js';
import { tailEvents, type EventSchema } from './tail-events.js';

/**
 * How long the tool may stay up after its run ended before it is stopped: what keeps it is an
 * open handle (a server, a timer) that a plain `jest` or `vitest` would wait on forever.
 */
export const LINGER_MS = 10_000;
const CHECK_MS = 250;

/** The two events of the stream a pass reads itself: every other is the runner's. */
interface EndEvents {
  event: string;
  exitCode?: number;
}

export interface WatchedPassInput<E extends EndEvents, O> {
  /** Written to planFile before the process starts: what the runner's entry script runs. */
  plan: unknown;
  planFile: string;
  /** The file the tool's reporter appends its events to. */
  events: string;
  schema: EventSchema<E>;
  /** The program and its arguments: node, with the runner's entry script. */
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal: AbortSignal;
  /** What has run past its limit at a moment; a non-empty answer stops the process. */
  overdue(now: number): O[];
  /**
   * Whether the limits still apply once the tool has said its run returned (`cli-end`): Vitest
   * may report a test's end after that, Jest has ended every test by then.
   */
  limitsAfterEnd: boolean;
  /**
   * Called once with what ran past its limit, before the process is stopped for it: what it
   * returns (the same, with where each was stuck) is what the pass reports. The stop waits for it
   * at most CAPTURE_BOUND_MS (and a little for its own clock).
   */
  beforeStop?(overdue: O[]): Promise<O[]>;
  /** Each event as it is read, in order. */
  onEvent(event: E): void;
}

export interface WatchedPass<O> {
  proc: ProcessResult;
  /** What ran past its limit; non-empty when the pass was stopped for it. */
  overdue: O[];
  /** The tool reported the end of its run (`run-end`): the process did not end before it. */
  completed: boolean;
  /** The tool's run returned, then the process did not exit within LINGER_MS and was stopped. */
  lingered: boolean;
  /** The exit code the tool's run returned (`cli-end`), known even when the process was stopped after it. */
  cliExitCode?: number;
}

/**
 * One process of the test tool, followed through its event file: stopped when a limit passes,
 * when it lingers after its run, or when the caller's signal aborts (then nothing is overdue).
 */
export async function watchPass<E extends EndEvents, O>(
  input: WatchedPassInput<E, O>,
): Promise<WatchedPass<O>> {
  await writeFile(input.planFile, JSON.stringify(input.plan));
  const stop = new AbortController();
  const forward = (): void => stop.abort();
  if (input.signal.aborted) forward();
  input.signal.addEventListener('abort', forward, { once: true });

  let overdue: O[] = [];
  let endedAt: number | undefined;
  let cliExitCode: number | undefined;
  let lingered = false;
  let completed = false;
  const tail = tailEvents(input.events, input.schema, (e) => {
    if (e.event === 'run-end') completed = true;
    if (e.event === 'cli-end') {
      endedAt = Date.now();
      cliExitCode = e.exitCode;
    }
    input.onEvent(e);
  });
  let stopping = false;
  const stopFor = (found: O[]): void => {
    stopping = true;
    const before = input.beforeStop;
    if (!before) return stop.abort();
    let bound: NodeJS.Timeout | undefined;
    void Promise.race([
      before(found).catch(() => found),
      new Promise<O[]>((r) => (bound = setTimeout(() => r(found), CAPTURE_BOUND_MS + CHECK_MS))),
    ]).then((o) => {
      clearTimeout(bound);
      overdue = o;
      stop.abort();
    });
  };
  const check = setInterval(() => {
    if (stop.signal.aborted || stopping) return;
    const now = Date.now();
    if (input.limitsAfterEnd || endedAt === undefined) overdue = input.overdue(now);
    if (endedAt !== undefined && now - endedAt > LINGER_MS) lingered = true;
    if (overdue.length > 0) stopFor(overdue);
    else if (lingered) stop.abort();
  }, CHECK_MS);

  const proc = await runProcess(input.command, input.args, {
    cwd: input.cwd,
    env: input.env,
    timeoutMs: input.timeoutMs,
    signal: stop.signal,
  });
  clearInterval(check);
  input.signal.removeEventListener('abort', forward);
  await tail.stop();
  return {
    proc,
    overdue: input.signal.aborted ? [] : overdue,
    completed,
    lingered: lingered && !input.signal.aborted,
    ...(cliExitCode !== undefined ? { cliExitCode } : {}),
  };
}
