import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunResultSchema, type RunResult } from '../api/contracts/run-result.js';
import type { Runner } from '../api/plugin.js';
import { check, copyFixture, silentLogger } from './conformance-utils.js';
import { ProcessWatch, type SeenProcess } from './process-watch.js';
import { HANG_DEFAULTS, type HangFixture } from './runner-fixture.js';

type Outcome = { result: RunResult; ms: number } | { late: true; ms: number };

const listed = (left: SeenProcess[]): string =>
  left.map((p) => `pid ${p.pid} (group ${p.pgid}): ${p.command.slice(0, 120)}`).join('; ');

/**
 * One run of the hanging project on a fresh copy: `stopAt` aborts it that long after the start.
 * Returns when the run does, or `late` once `boundMs` has passed (the kit then aborts the run and
 * kills what it started, so one broken runner does not leak into the next check).
 */
async function hangingRun(
  runner: Runner,
  hang: HangFixture,
  tempParent: string | undefined,
  timeoutMs: number,
  boundMs: number,
  stopAt?: number,
): Promise<{ outcome: Outcome; survivors: SeenProcess[]; seen: number }> {
  const copy = await copyFixture(hang.path, tempParent);
  const workDir = await mkdtemp(join(tmpdir(), 'suture-conformance-work-'));
  const controller = new AbortController();
  const watch = new ProcessWatch(copy.root);
  const started = Date.now();
  const abortTimer = stopAt === undefined ? undefined : setTimeout(() => controller.abort(), stopAt);
  let boundTimer: NodeJS.Timeout | undefined;
  const run = Promise.resolve()
    .then(() =>
      runner.run({ root: copy.root, timeoutMs, signal: controller.signal, logger: silentLogger, workDir }),
    )
    .then((raw): Outcome => ({ result: RunResultSchema.parse(raw), ms: Date.now() - started }));
  try {
    const outcome = await Promise.race([
      run,
      new Promise<Outcome>((resolve) => {
        boundTimer = setTimeout(() => resolve({ late: true, ms: Date.now() - started }), boundMs);
      }),
    ]);
    const survivors = await watch.stop();
    return { outcome, survivors, seen: watch.seen };
  } finally {
    clearTimeout(abortTimer);
    clearTimeout(boundTimer);
    controller.abort();
    watch.killAll();
    // a late run still gets the chance to finish before its folder goes
    await Promise.race([run.catch(() => undefined), new Promise((r) => setTimeout(r, 2000))]);
    await rm(workDir, { recursive: true, force: true });
    await copy.dispose();
  }
}

/** The time limit and abort checks of the runner kit, on the fixture's hanging project. */
export function stopCases(
  runner: Runner,
  hang: HangFixture,
  tempParent: string | undefined,
  runTimeoutMs: number,
): Array<{ name: string; run: () => Promise<void> }> {
  const timeoutMs = hang.timeoutMs ?? HANG_DEFAULTS.timeoutMs;
  const graceMs = hang.graceMs ?? HANG_DEFAULTS.graceMs;
  const abortAfterMs = hang.abortAfterMs ?? HANG_DEFAULTS.abortAfterMs;
  return [
    {
      name: 'ends a hanging run at its time limit and kills its process group',
      run: async () => {
        const { outcome, survivors, seen } = await hangingRun(
          runner,
          hang,
          tempParent,
          timeoutMs,
          timeoutMs + graceMs,
        );
        check(
          !('late' in outcome),
          `the run of ${hang.test} was still going ${graceMs} ms after its time limit of ${timeoutMs} ms: honour ctx.timeoutMs (runProcess from @suture/core kills the process group at the limit)`,
        );
        const { result } = outcome;
        check(
          result.status === 'timeout',
          `a run stopped at its time limit must have status "timeout", got "${result.status}"${result.error ? `: ${result.error}` : ''}`,
        );
        const t = result.tests.find((x) => x.id === hang.test);
        check(
          !t || t.status === 'timeout',
          `the hanging test "${hang.test}" must be reported as "timeout" (or not at all), got "${t?.status}"`,
        );
        check(seen > 0, `no process was seen working in the project while ${hang.test} hung`);
        check(
          survivors.length === 0,
          `processes of the run outlived it: ${listed(survivors)}; kill the whole process group at the time limit`,
        );
      },
    },
    {
      name: 'ends a run promptly when aborted and kills its process group',
      run: async () => {
        const { outcome, survivors } = await hangingRun(
          runner,
          hang,
          tempParent,
          runTimeoutMs,
          abortAfterMs + graceMs,
          abortAfterMs,
        );
        check(
          !('late' in outcome),
          `the run was still going ${graceMs} ms after ctx.signal was aborted: stop when the signal fires (pass it to runProcess from @suture/core)`,
        );
        const { result } = outcome;
        check(result.status !== 'passed', 'an aborted run must not report status "passed"');
        check(
          !result.tests.some((x) => x.id === hang.test && x.status === 'passed'),
          `the aborted test "${hang.test}" must not be reported as passed`,
        );
        check(
          survivors.length === 0,
          `processes of the run outlived the abort: ${listed(survivors)}; kill the whole process group`,
        );
      },
    },
  ];
}
