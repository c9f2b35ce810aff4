import type { Runner } from '../api/plugin.js';

/**
 * What the runner kit needs to know about a runner's fixture projects. Every project is copied
 * before use, so the fixtures stay clean.
 */
export interface RunnerFixture {
  /** A project folder with at least one failing and one passing test. */
  path: string;
  /** Ids (as the runner reports them) of tests that must fail. */
  failing: string[];
  /** Ids of tests that must pass. */
  passing: string[];
  /**
   * A project folder whose run never ends by itself: `test` (its id) waits forever. The kit runs
   * it whole, once with a short `timeoutMs` and once aborting it, and checks the run returns in
   * time, reports the timeout, and leaves no process of its process groups behind.
   */
  hang: HangFixture;
  /**
   * A project folder whose build or collection fails, and where: the kit expects a diagnostic
   * (severity error) on `file` (project-relative), at `line` when given.
   */
  buildError: { path: string; file: string; line?: number };
  /**
   * The same runner configured with a toolchain that is not installed, e.g.
   * `pytest({ python: '/nonexistent/python3' })`, or the runner as it is when it finds its tool in
   * the project's dependencies (the kit runs it on a copy of `path` in the OS temp folder, away
   * from the repository's node_modules). Its run must be a RunResult with status "error" and an
   * `error` that says what to install.
   */
  missingToolchain: Runner;
  /**
   * The kit checks that each test's reported line holds the test's name (the words of its last
   * id segment). For a test whose definition does not spell its name (a template, a macro), give
   * the text its line holds: `{ 'adds 2 + 2 = 5': "'adds %i + %i = %i'" }`.
   */
  definitions?: Record<string, string>;
  /** Where copies are made (a folder under the repo for runners that resolve tools from node_modules). */
  tempParent?: string;
  /** Globs (relative to the project) the runner may write: its build folder, caches. */
  writes?: string[];
  /** Wall-clock limit for one run. Default 120 s. */
  timeoutMs?: number;
}

export interface HangFixture {
  path: string;
  /** Id of the test that never ends. */
  test: string;
  /** The time limit of the run that must time out. Default 5 s; more when a build comes first. */
  timeoutMs?: number;
  /** How long after its time limit, or after an abort, a run may take to return. Default 5 s. */
  graceMs?: number;
  /** When the kit aborts the second run, from its start. Default 2 s. */
  abortAfterMs?: number;
}

export const HANG_DEFAULTS = { timeoutMs: 5000, graceMs: 5000, abortAfterMs: 2000 } as const;
