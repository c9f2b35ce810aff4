import type { ProcessResult } from '@suture/core';
import { requestStacks, stuckIn, watchPass } from '@suture/runner-jest/js-runner';
import { VitestEventSchema, type VitestEvent } from './events.js';
import type { VitestPlan } from './plan.js';
import { ENTRY } from './resolve-vitest.js';
import { Watchdog, type Overdue, type RunningTest, type WatchdogLimits } from './watchdog.js';

/**
 * How long Vitest may stay up after its run ended before it is stopped: what keeps it is an open
 * handle that its own teardownTimeout did not end.
 */
export { LINGER_MS } from '@suture/runner-jest/js-runner';

export interface PassInput {
  plan: VitestPlan;
  planFile: string;
  /** The folder the workers' stack helpers (started by the setup file) answer in. */
  stacksDir: string;
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
  const watchdog = new Watchdog(input.limits);
  const events: VitestEvent[] = [];
  const pass = await watchPass({
    plan: input.plan,
    planFile: input.planFile,
    events: input.plan.events,
    schema: VitestEventSchema,
    command: input.node,
    args: [ENTRY],
    cwd: input.cwd,
    env: { ...input.env, SUTURE_VITEST_PLAN: input.planFile },
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    overdue: (now) => watchdog.overdue(now),
    limitsAfterEnd: false,
    beforeStop: async (found) => {
      const files = found.flatMap((o) => (o.kind === 'test' ? [o.test.file] : []));
      if (files.length === 0) return found;
      const stacks = await requestStacks(input.stacksDir, files);
      return found.map((o) =>
        o.kind === 'test' ? { ...o, stuck: stuckIn(input.cwd, o.test.file, stacks) } : o,
      );
    },
    onEvent: (e) => {
      events.push(e);
      watchdog.observe(e);
      input.onEvent(e);
    },
  });
  return {
    proc: pass.proc,
    events,
    overdue: pass.overdue,
    running: watchdog.running(),
    completed: pass.completed,
    lingered: pass.lingered,
    exitCode:
      pass.lingered || pass.cliExitCode !== undefined ? (pass.cliExitCode ?? null) : pass.proc.exitCode,
  };
}
