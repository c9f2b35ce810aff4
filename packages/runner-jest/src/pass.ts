import type { ProcessResult } from '@suture/core';
import { JestEventSchema, type JestEvent } from './events.js';
import { watchPass } from './js-runner/pass.js';
import { requestStacks, stuckIn } from './js-runner/stuck.js';
import type { JestPlan } from './plan.js';
import { ENTRY } from './resolve-jest.js';
import type { AssertionResult, SuiteResult } from './results.js';
import { Watchdog, type Overdue, type RunningTest, type WatchdogLimits } from './watchdog.js';

/**
 * How long Jest may stay up after its run returned (global teardown included) before it is
 * stopped; Jest's own warning of an open handle comes at one second.
 */
export { LINGER_MS } from './js-runner/pass.js';

export interface PassInput {
  plan: JestPlan;
  planFile: string;
  nodeFlags: string[];
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  signal: AbortSignal;
  limits: WatchdogLimits;
  /** Each event as it is read, in order. */
  onEvent: (event: JestEvent) => void;
}

export interface PassResult {
  proc: ProcessResult;
  /** The result of each test file that ended, by project and absolute path (suiteKey). */
  suites: Map<string, SuiteResult>;
  /**
   * The tests that ended in each test file that did not end (by suiteKey): a file stopped outside
   * any test (a hanging afterAll) keeps them.
   */
  ended: Map<string, AssertionResult[]>;
  /** What ran past its limit; non-empty when the watchdog stopped Jest. */
  overdue: Overdue[];
  /** Tests that had started and not ended when Jest stopped. */
  running: RunningTest[];
  /** Test files that had started and not ended when Jest stopped. */
  openFiles: Array<{ file: string; project?: string }>;
  /** Jest reported the end of its run (onRunComplete): the process did not end before it. */
  completed: boolean;
  /** Jest's run returned, then the process did not exit within LINGER_MS and was stopped. */
  lingered: boolean;
  /** The exit code Jest's run returned, known even when the process was stopped after it. */
  exitCode: number | null;
}

/** A run of a test file: the file in one Jest project (a file may run in several). */
export const suiteKey = (file: string, project: string | undefined): string => `${project ?? ''}\0${file}`;

/** One Jest process: started through reporter/jest-entry.cjs, followed through its events. */
export async function runPass(input: PassInput): Promise<PassResult> {
  const watchdog = new Watchdog(input.limits);
  const suites = new Map<string, SuiteResult>();
  const ended = new Map<string, AssertionResult[]>();
  const pass = await watchPass({
    plan: input.plan,
    planFile: input.planFile,
    events: input.plan.events,
    schema: JestEventSchema,
    command: process.execPath,
    args: [...input.nodeFlags, ENTRY],
    cwd: input.cwd,
    env: { ...input.env, SUTURE_JEST_PLAN: input.planFile },
    timeoutMs: input.timeoutMs,
    signal: input.signal,
    overdue: (now) => watchdog.overdue(now),
    limitsAfterEnd: true,
    beforeStop: async (found) => {
      const dir = input.plan.stacks?.dir;
      const files = found.flatMap((o) => (o.kind === 'test' ? [o.test.file] : []));
      if (!dir || files.length === 0) return found;
      const stacks = await requestStacks(dir, files);
      return found.map((o) =>
        o.kind === 'test' ? { ...o, stuck: stuckIn(input.cwd, o.test.file, stacks) } : o,
      );
    },
    onEvent: (e) => {
      watchdog.observe(e);
      if (e.event === 'test-end') {
        const key = suiteKey(e.file, e.project);
        const list = ended.get(key);
        if (list) list.push(e.result);
        else ended.set(key, [e.result]);
      }
      if (e.event === 'file-end') {
        suites.set(suiteKey(e.file, e.project), e.suite);
        ended.delete(suiteKey(e.file, e.project));
      }
      input.onEvent(e);
    },
  });
  return {
    proc: pass.proc,
    suites,
    ended,
    overdue: pass.overdue,
    running: watchdog.running(),
    openFiles: watchdog.openFiles(),
    completed: pass.completed,
    lingered: pass.lingered,
    exitCode: pass.lingered ? (pass.cliExitCode ?? null) : pass.proc.exitCode,
  };
}
