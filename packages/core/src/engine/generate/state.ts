import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import type { AutoRunTest } from '../../api/contracts/autorun.js';
import { RunResultSchema, type RunResult } from '../../api/contracts/run-result.js';
import type { AuditLog } from './audit.js';
import { wireCmake } from './cmake.js';
import type { CoverageData, CoverageProbe } from './measure/probe.js';
import type { Rollback } from './rollback.js';
import type { Workspace } from '../../safety/workspace/types.js';
import { inWorkspace } from './sandboxed.js';
import type { Snapshot } from './snapshot.js';
import type { AutoRunOptions, Candidate } from './types.js';

export interface Settings {
  maxFixAttempts: number;
  flakeRuns: number;
  generations: number;
}

/** What one auto-run carries from step to step. */
export interface RunState {
  options: AutoRunOptions;
  settings: Settings;
  language: string;
  runDir: string;
  /** Kept across measurements (the coverage build). */
  cacheDir: string;
  snapshot: Snapshot;
  audit: AuditLog;
  rollback: Rollback;
  probe: CoverageProbe;
  /** Generated files kept so far (existing tests from then on). */
  kept: Candidate[];
  /** Target coverage of the existing tests and every kept file. */
  covered: CoverageData;
  env: NodeJS.ProcessEnv;
  /** Where every command runs (the project, sandboxed, its other files put back after each run). */
  workspace?: Workspace;
}

export const isCpp = (state: RunState): boolean => state.language === 'cpp' || state.language === 'c';

/** A fresh scratch folder inside the run folder. */
export const scratch = (state: RunState, name: string): Promise<string> =>
  mkdtemp(join(state.runDir, 'work', `${name}-`));

/** One run of the project's runner: the whole suite, or the selection when the runner can. */
export async function runTests(state: RunState, selection?: string[]): Promise<RunResult> {
  const { project, signal, logger } = state.options;
  await mkdir(join(state.runDir, 'work'), { recursive: true });
  const started = Date.now();
  const workDir = await scratch(state, 'run');
  const raw = await inWorkspace(state, 'a run of the generated tests', () =>
    project.runner.run({
      root: project.root,
      ...(selection && project.runner.supportsSelection ? { selection } : {}),
      timeoutMs: project.timeoutMs,
      signal: signal ?? new AbortController().signal,
      logger,
      workDir,
    }),
  );
  const run = RunResultSchema.parse(raw);
  await state.audit.record({
    kind: 'command',
    at: new Date(started).toISOString(),
    command: run.command,
    cwd: project.root,
    exitCode: run.exitCode,
    durationMs: run.durationMs,
    purpose: selection ? `run ${selection.length} generated tests` : 'run the suite with the generated tests',
  });
  return run;
}

/**
 * The test ids that run just these files: the ids a run reported for them, else what names a
 * whole file (a CTest entry, a pytest file path). Undefined, the whole suite, when a file has
 * neither (a Jest file none of whose tests has run yet).
 */
export function selectionFor(
  state: RunState,
  files: ReadonlyArray<{ candidate: Candidate; tests: readonly string[] }>,
): string[] | undefined {
  const ids: string[] = [];
  for (const { candidate, tests } of files) {
    if (tests.length) ids.push(...tests);
    else if (candidate.entry) ids.push(candidate.entry);
    else if (state.language === 'python') ids.push(candidate.file);
    else return undefined;
  }
  return ids;
}

/** Takes a candidate out (by the rollback strategy) and out of the C/C++ build. */
export async function removeCandidate(
  state: RunState,
  candidate: Candidate,
  alive: readonly Candidate[],
  why: string,
): Promise<void> {
  await state.rollback.undo([candidate.file], why);
  if (isCpp(state)) await rewire(state, alive);
}

export async function rewire(state: RunState, alive: readonly Candidate[]): Promise<void> {
  await wireCmake(
    state.options.project.root,
    [...state.kept, ...alive],
    state.snapshot,
    state.options.cmakeLink,
  );
}

export type Decided = Omit<AutoRunTest, 'durationMs'>;
