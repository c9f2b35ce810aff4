import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runProcess, type ProcessResult, type TestResult } from '@suture/core';
import { parseEventLine } from './event-schema.js';
import type { EventFold } from './events.js';
import { followLines } from './follow-lines.js';
import { LAUNCHER } from './interpreter.js';
import type { TestLimits } from './limits.js';

export interface Session {
  python: string;
  root: string;
  workDir: string;
  /** 1 for the first pytest process of the run, 2 for a restart after a stopped test, ... */
  index: number;
  /** The project's pytest arguments (and the selected nodeids): what the tests see in sys.argv. */
  args: string[];
  env: Record<string, string | undefined>;
  limits: TestLimits;
  /** Tests an earlier process of the run finished: left out of this one. */
  deselect: string[];
  /** Tests that reached their limit in an earlier process of the run, first first: their siblings get `limits.rerunS`. */
  hung: string[];
  timeoutMs: number;
  signal: AbortSignal;
  /** Where the recording of what each test ran goes (`RunContext.record`), for this process. */
  record?: string;
}

/**
 * suture's own pytest arguments. None changes what a test sees: the rootdir is where pytest
 * finds it for a project with its config at the root (node ids relative to the project), a
 * collection error no longer stops the other files, and colour is off in pytest's own report.
 */
function internalArgs(session: Session): string[] {
  return [`--rootdir=${session.root}`, '--continue-on-collection-errors', '--color=no'];
}

/**
 * Runs one pytest process. Events are folded as the plugin writes them, and each test is handed
 * to `onFinished` the moment its last phase ends.
 */
export async function runSession(
  session: Session,
  fold: EventFold,
  onFinished: (test: TestResult) => void,
): Promise<ProcessResult> {
  const events = join(session.workDir, `pytest-events-${session.index}.jsonl`);
  const config = join(session.workDir, `pytest-session-${session.index}.json`);
  const internal = internalArgs(session);
  await writeFile(
    config,
    JSON.stringify({
      events,
      root: session.root,
      internal: internal.length,
      // pytest's cache (the `cache` fixture, --lf) writes here instead of into the project
      cacheDir: join(session.workDir, 'pytest-cache'),
      deselect: session.deselect,
      hung: session.hung,
      ...(session.record ? { record: session.record } : {}),
      limits: {
        defaultS: session.limits.defaultS,
        perTest: session.limits.perTest,
        rerunS: session.limits.rerunS,
      },
    }),
  );
  const follower = followLines(events, (line) => {
    const event = parseEventLine(line);
    const finished = event ? fold.push(event) : undefined;
    if (finished) onFinished(finished);
  });
  try {
    return await runProcess(session.python, [LAUNCHER, config, ...internal, ...session.args], {
      cwd: session.root,
      env: session.env,
      timeoutMs: session.timeoutMs,
      signal: session.signal,
    });
  } finally {
    await follower.stop();
  }
}
