import type { AutoRunAttempt, AutoRunTest } from '../../api/contracts/autorun.js';
import type { RunResult } from '../../api/contracts/run-result.js';
import { compileError, outcomeOf, testsOf, type RunOutcome } from './classify.js';
import { coverageGain, gainIsEmpty, mergeCoverage } from './measure/model.js';
import { attemptsFor, healGenerated } from './heal.js';
import { inWorkspace } from './sandboxed.js';
import {
  isCpp,
  removeCandidate,
  rewire,
  runTests,
  scratch,
  selectionFor,
  type Decided,
  type RunState,
} from './state.js';
import type { Candidate } from './types.js';

interface Tracked {
  candidate: Candidate;
  tests: string[];
  attempts: AutoRunAttempt[];
  runs: RunOutcome[];
  messages: string[];
  decided?: Decided;
}

const decide = (
  t: Tracked,
  verdict: Decided['verdict'],
  reason: string,
  extra: Partial<Decided> = {},
): void => {
  t.decided = {
    file: t.candidate.file,
    tests: t.tests.length ? t.tests : t.candidate.planned,
    ...(t.candidate.covers ? { covers: t.candidate.covers } : {}),
    generation: t.candidate.generation,
    verdict,
    reason,
    attempts: t.attempts,
    runs: t.runs,
    ...extra,
  };
};

/**
 * Puts one generation's files through the filter, in the order the published work found
 * cheapest: heal what fails (generated files only), drop what still does not build, run the
 * rest `flakeRuns` times in a row, then keep a file only when it covers target lines or branches
 * nothing kept before it covers. Each file removed is taken out by the rollback strategy.
 */
export async function evaluate(
  state: RunState,
  candidates: Candidate[],
  generation: number,
): Promise<AutoRunTest[]> {
  const started = Date.now();
  const tracked: Tracked[] = candidates.map((candidate) => ({
    candidate,
    tests: [],
    attempts: [],
    runs: [],
    messages: [],
  }));
  const live = (): Tracked[] => tracked.filter((t) => !t.decided);
  const remove = async (t: Tracked, verdict: Decided['verdict'], reason: string): Promise<void> => {
    decide(t, verdict, reason);
    await removeCandidate(
      state,
      t.candidate,
      live().map((x) => x.candidate),
      `${verdict}: ${reason}`,
    );
  };

  const heal = async (subset: Tracked[], label: string): Promise<void> => {
    if (state.settings.maxFixAttempts === 0 || state.options.fixers.length === 0) return;
    const report = await inWorkspace(state, 'the heal of the generated tests', () =>
      healGenerated(
        state.options,
        subset.map((t) => t.candidate),
        state.runDir,
        label,
        state.settings.maxFixAttempts,
        selectionFor(state, subset),
      ),
    );
    for (const t of subset)
      for (const a of attemptsFor(t.candidate, report))
        t.attempts.push({ ...a, attempt: t.attempts.length + 1 });
  };
  // runs the live files' tests only, and learns their ids
  const runLive = async (): Promise<RunResult> => {
    const result = await runTests(state, selectionFor(state, live()));
    for (const t of live()) {
      const ids = testsOf(t.candidate, result).map((x) => x.id);
      if (ids.length) t.tests = ids;
    }
    return result;
  };

  // a file that does not build is healed on its own: in C/C++ its error stops the whole build,
  // so a heal of one file could never pass validation while another file is still broken
  let run = await runLive();
  const broken = live().filter((t) => compileError(t.candidate, run, false) !== undefined);
  for (const [i, t] of broken.entries()) {
    if (isCpp(state)) await rewire(state, [t.candidate]);
    await heal([t], `heal-${generation}-build-${i + 1}`);
  }
  if (broken.length && isCpp(state))
    await rewire(
      state,
      live().map((t) => t.candidate),
    );
  if (broken.length) run = await runLive();

  // what still does not build is removed, a named file's error first
  for (let round = 0; round <= candidates.length; round++) {
    let named = live().filter((t) => compileError(t.candidate, run, false) !== undefined);
    if (named.length === 0) named = live().filter((t) => compileError(t.candidate, run, true) !== undefined);
    if (named.length === 0) break;
    for (const t of named)
      await remove(t, 'does-not-compile', compileError(t.candidate, run, true) ?? 'does not build');
    if (live().length === 0) break;
    run = await runLive();
  }

  // what builds and fails is healed together
  if (live().some((t) => outcomeOf(t.candidate, run).outcome !== 'passed')) {
    await heal(live(), `heal-${generation}`);
    run = await runLive();
  }

  // does it pass, run after run
  for (let i = 0; i < state.settings.flakeRuns && live().length; i++) {
    if (i > 0) run = await runLive();
    for (const t of live()) {
      const o = outcomeOf(t.candidate, run);
      t.runs.push(o.outcome);
      if (o.message) t.messages.push(o.message);
    }
  }
  for (const t of live()) {
    const passes = t.runs.filter((r) => r === 'passed').length;
    if (passes === t.runs.length) continue;
    if (passes === 0) await remove(t, 'fails', t.messages[0] ?? 'its tests fail');
    else
      await remove(
        t,
        'flaky',
        `passed ${passes} of ${t.runs.length} runs; ${t.messages[0] ?? 'failed the others'}`,
      );
  }

  // does it add coverage, on top of the existing tests and every file kept before it
  for (const t of live()) {
    const workDir = await scratch(state, 'coverage');
    const data = await inWorkspace(state, `the coverage run of ${t.candidate.file}`, () =>
      state.probe.measure({
        root: state.options.project.root,
        target: state.options.target,
        tests: { files: [t.candidate.file], entries: t.candidate.entry ? [t.candidate.entry] : [] },
        workDir,
        cacheDir: state.cacheDir,
        timeoutMs: state.options.project.timeoutMs,
        ...(state.options.signal ? { signal: state.options.signal } : {}),
        env: state.env,
        audit: state.audit,
      }),
    );
    const gain = coverageGain(state.covered, data);
    if (gainIsEmpty(gain)) {
      await remove(
        t,
        'no-coverage',
        'covers no target line or branch that the existing and kept tests do not',
      );
      continue;
    }
    state.covered = mergeCoverage(state.covered, data);
    const lines = gain.lines.reduce((n, f) => n + f.lines.length, 0);
    decide(
      t,
      'kept',
      `passed ${t.runs.length} runs in a row and covers ${lines} new lines and ${gain.branches} new branches`,
      {
        gain,
      },
    );
    state.kept.push(t.candidate);
  }
  if (isCpp(state)) await rewire(state, []);
  const durationMs = (Date.now() - started) / Math.max(1, tracked.length);
  return tracked.map((t) => ({ ...t.decided!, durationMs }));
}
