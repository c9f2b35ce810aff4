import type { Failure, FailureInput, FailureKind, ScopeInput } from './contracts/failure.js';
import type { FixProposalInput, FixRequest } from './contracts/fix.js';
import type { Attempt, GateReport, ProjectReport, Round } from './contracts/report.js';
import type { RunResult, RunResultInput, TestResult } from './contracts/run-result.js';

/** The plugin API this version of core speaks. A plugin declaring another version is refused at load. */
export const API_VERSION = 1;

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginBase {
  /** Equals the package name for published plugins; `suture:<name>` for built-ins. */
  readonly name: string;
  /** Must equal the API_VERSION of the core that loads it. */
  readonly apiVersion: number;
}

/** The second argument of every plugin factory: `pytest(options, context)`. */
export interface PluginFactoryContext {
  /** Absolute folder of the config file: resolve paths given in options from here. */
  configDir: string;
}

export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'error';
  message: string;
  /** What to do about it (an install command, an env var to set). */
  fix?: string;
}

// ---------------------------------------------------------------------------------------------
// Runner

export interface RunContext {
  /** Absolute path of the project root. */
  root: string;
  /**
   * Test ids (as produced by this runner in RunResult.tests[].id) to run instead of the whole
   * suite. Undefined means the whole suite. Only passed when `supportsSelection` is true.
   */
  selection?: string[];
  /** Wall-clock limit for the whole run; the runner kills its process group when it is reached. */
  timeoutMs: number;
  /** Aborted when the gate is cancelled; the runner must kill its processes and return promptly. */
  signal: AbortSignal;
  logger: Logger;
  /** A private scratch folder for this run (reports, temp files); created by the engine. */
  workDir: string;
  /** Called as each test finishes, when the runner can stream results. Optional. */
  onTestResult?: (test: TestResult) => void;
}

export interface DetectedProject {
  /** Suggested project name. */
  name: string;
  /** Runner options to write into the config, if any. */
  options?: Record<string, unknown>;
  /** Why this folder was detected, for `suture init` output. */
  reason: string;
}

/**
 * Runs a project's real test suite. Called by the engine only (never writes project files; may
 * write build outputs in its own build folder and in `ctx.workDir`).
 * A failing test is data, not an exception: `run` throws only when the runner itself is broken.
 * A missing toolchain is a RunResult with status 'error' and an `error` that says what to install.
 */
export interface Runner extends PluginBase {
  /** Language of the projects it runs: 'python', 'cpp', 'javascript', ... */
  readonly language: string;
  /** True when `run` honours `ctx.selection`. */
  readonly supportsSelection: boolean;
  run(ctx: RunContext): Promise<RunResultInput>;
  /** Does `dir` hold a project of this runner? Used by `suture init`. */
  detect?(dir: string): Promise<DetectedProject | null>;
  /** The analyzer that fits this runner's results (used unless the config names another). */
  analyzer?(): Analyzer;
  /** Toolchain checks for `suture doctor`. */
  doctor?(root: string): Promise<DoctorCheck[]>;
}

// ---------------------------------------------------------------------------------------------
// Analyzer

/** What an analyzer knows about the project it analyses. */
export interface ProjectInfo {
  name: string;
  /** Absolute project root. */
  root: string;
  /** Call-graph depth to follow from a failing test. */
  scopeDepth: number;
  logger: Logger;
}

/**
 * Turns a RunResult into root-cause Failures and justifies an edit scope for each.
 * Pure with respect to the project: reads files, never writes them.
 */
export interface Analyzer extends PluginBase {
  /** Group failing tests and diagnostics by root cause. Passing tests produce nothing. */
  analyze(result: RunResult, project: ProjectInfo): Promise<FailureInput[]>;
  /**
   * Files and symbols a fix for `failure` may touch, each with a reason. The engine intersects
   * the result with the allowed paths and removes denied paths.
   */
  scope(failure: Failure, project: ProjectInfo): Promise<ScopeInput>;
  /** Is this project-relative path a test file? Used by the edit policy and the weakening guard. */
  isTestFile?(file: string): boolean;
  /**
   * Syntax check of a proposed file content before it is written: a short reason when it would
   * not parse, undefined when it does (or when the analyzer cannot tell).
   */
  checkSyntax?(file: string, content: string): string | undefined;
}

// ---------------------------------------------------------------------------------------------
// Fixer

export interface FixerContext {
  signal: AbortSignal;
  logger: Logger;
  /** Absolute project root (read-only for the fixer). */
  root: string;
}

/**
 * Proposes a patch for one failure. A fixer never writes project files: it returns edits, and the
 * engine validates, applies and re-runs them. Throwing or returning data that fails the
 * FixProposal schema ends the attempt as 'fixer-error' and the run goes on.
 */
export interface Fixer extends PluginBase {
  /** Failure kinds this fixer can handle; absent means all repairable kinds. */
  readonly kinds?: readonly FailureKind[];
  propose(request: FixRequest, ctx: FixerContext): Promise<FixProposalInput>;
  /** Credentials and binaries check for `suture doctor`; must not spend tokens when avoidable. */
  doctor?(): Promise<DoctorCheck[]>;
}

// ---------------------------------------------------------------------------------------------
// Reporter

export type GateMode = 'check' | 'fix' | 'no-heal';

export interface RunStartEvent {
  runId: string;
  root: string;
  runDir: string;
  mode: GateMode;
  projects: string[];
}
export interface ProjectStartEvent {
  project: string;
  runner: string;
}
export interface TestResultEvent {
  project: string;
  test: TestResult;
}
export interface RoundEndEvent {
  project: string;
  round: Round;
}
export interface AttemptStartEvent {
  project: string;
  failure: Failure;
  attempt: number;
  fixer: string;
}
export interface AttemptEndEvent {
  project: string;
  failure: Failure;
  attempt: Attempt;
}
export interface ProjectEndEvent {
  project: ProjectReport;
}
export interface RunEndContext {
  runDir: string;
  root: string;
}

/**
 * Observes the gate. Hooks are optional and called in config order; a reporter that throws is
 * logged and does not stop the gate. `onRunEnd` is called even when the gate crashed
 * (with the partial report), so files are always written.
 */
export interface Reporter extends PluginBase {
  onRunStart?(event: RunStartEvent): void | Promise<void>;
  onProjectStart?(event: ProjectStartEvent): void | Promise<void>;
  onTestResult?(event: TestResultEvent): void | Promise<void>;
  onRoundEnd?(event: RoundEndEvent): void | Promise<void>;
  onAttemptStart?(event: AttemptStartEvent): void | Promise<void>;
  onAttemptEnd?(event: AttemptEndEvent): void | Promise<void>;
  onProjectEnd?(event: ProjectEndEvent): void | Promise<void>;
  onRunEnd?(report: GateReport, context: RunEndContext): void | Promise<void>;
}

export type Plugin = Runner | Analyzer | Fixer | Reporter;
export type PluginKind = 'runner' | 'analyzer' | 'fixer' | 'reporter';
