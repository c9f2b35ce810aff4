import { PluginError } from '../api/errors.js';
import type { RunContext, Runner } from '../api/plugin.js';
import { formatDuration } from '../text/duration.js';
import { guardCall, type WrapContext } from './hook-table.js';

/**
 * How long a runner has, past its time limit or after being stopped, to kill its processes and
 * return what it has. A runner that kills at the limit needs a few seconds (SIGTERM, then SIGKILL
 * after 2 s, then the output drained); one that never returns must not hold the gate longer.
 */
export const RUNNER_GRACE_MS = 10_000;

/**
 * A runner's `run` held to its own contract: it returns by `ctx.timeoutMs` (plus a grace) and
 * promptly once `ctx.signal` aborts. A promise that never settles would otherwise hang the gate,
 * or, with nothing else left to wait for, end Node with exit 13 and no report; it becomes a throw
 * naming the runner and the setting, so the round ends "error" and the run goes on.
 */
export function runWithinLimit(run: Runner['run'], w: WrapContext): Runner['run'] {
  const guarded = guardCall(w, 'run', run);
  return (ctx: RunContext) =>
    new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const fail = (detail: string): void =>
        reject(new PluginError(w.name, w.origin, `${detail}; the runner was given up and its round ended`));
      const onAbort = (): void => {
        clearTimeout(timer);
        timer = setTimeout(
          () =>
            fail(
              `run did not return within ${formatDuration(RUNNER_GRACE_MS)} of being stopped (a runner must kill its processes and return when ctx.signal aborts)`,
            ),
          RUNNER_GRACE_MS,
        );
      };
      // A context without a limit or a signal (a caller of the runner of its own) holds nothing.
      const signal = ctx.signal as AbortSignal | undefined;
      if (Number.isFinite(ctx.timeoutMs))
        timer = setTimeout(
          () =>
            fail(
              `run did not return within ${formatDuration(RUNNER_GRACE_MS)} after its time limit of ${formatDuration(ctx.timeoutMs)} (the project's "timeoutMs"; a runner must stop its tests at the limit and return what it has)`,
            ),
          ctx.timeoutMs + RUNNER_GRACE_MS,
        );
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      guarded(ctx)
        .then(resolve, reject)
        .finally(() => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
        });
    });
}
