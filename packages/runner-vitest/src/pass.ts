import { writeFile } from 'node:fs/promises';
import { runProcess, type ProcessResult } from '@suture/core';
import { tailEvents, type VitestEvent } from './events.js';
import type { VitestPlan } from './plan.js';
import { ENTRY } from './resolve-vitest.js';
import { Watchdog, type Overdue, type RunningTest, type WatchdogLimits } from './watchdog.js';

/**
 * How long Vitest may stay up after its run ended before it is stopped: what keeps it is an open
 * handle that its own teardownTimeout did not end.
 */
export const LINGER_MS = 10_000;
const CHECK_MS = 250;

export interface PassInput {
  plan: VitestPlan;
  planFile: string;
  node: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal: AbortSignal;
  limits: WatchdogLimits;
  onEvent: (event: VitestEvent) => void;
}

export interface PassResult {
  proc: ProcessResult;
  events: VitestEvent[];
  overdue: Overdue[];
  running: RunningTest[];
  /** Vitest's run ended (onTestRunEnd): the process did not stop before it. */
  completed: boolean;
  lingered: boolean;
  exitCode: number | null;
}

/** One Vitest process: started through reporter/vitest-entry.mjs, followed through its events. */
export async function runPass(input: PassInput): Promise<PassResult> {
  await writeFile(input.planFile, JSON.stringify(input.plan));
  const stop = new AbortController();
  const forward = (): void => stop.abort();
  if (input.signal.aborted) forward();
  input.signal.addEventListener('abort', forward, { once: true });

  const watchdog = new Watchdog(input.limits);
  const events: VitestEvent[] = [];
  let overdue: Overdue[] = [];
  let endedAt: number | undefined;
  let exitCode: number | undefined;
  let lingered = false;
  let completed = false;
  const tail = tailEvents(input.plan.events, (e) => {
    events.push(e);
    watchdog.observe(e);
    if (e.event === 'run-end') completed = true;
    if (e.event === 'cli-end') {
      endedAt = Date.now();
      exitCode = e.exitCode;
    }
    input.onEvent(e);
  });
  const check = setInterval(() => {
    if (stop.signal.aborted) return;
    const now = Date.now();
    if (endedAt === undefined) overdue = watchdog.overdue(now);
    if (endedAt !== undefined && now - endedAt > LINGER_MS) lingered = true;
    if (overdue.length > 0 || lingered) stop.abort();
  }, CHECK_MS);

  const proc = await runProcess(input.node, [ENTRY], {
    cwd: input.cwd,
    env: { ...input.env, SUTURE_VITEST_PLAN: input.planFile },
    timeoutMs: input.timeoutMs,
    signal: stop.signal,
  });
  clearInterval(check);
  input.signal.removeEventListener('abort', forward);
  await tail.stop();
  return {
    proc,
    events,
    overdue: input.signal.aborted ? [] : overdue,
    running: watchdog.running(),
    completed,
    lingered: lingered && !input.signal.aborted,
    exitCode: lingered || exitCode !== undefined ? (exitCode ?? null) : proc.exitCode,
  };
}
