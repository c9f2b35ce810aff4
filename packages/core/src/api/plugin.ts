import type { Failure, FailureInput, FailureKind, ScopeInput } from './contracts/failure.js';
import type { FixProposalInput, FixRequest } from './contracts/fix.js';
import type { Attempt, GateReport, ProjectReport, Round } from './contracts/report.js';
import type { RunResult, RunResultInput, TestResult } from './contracts/run-result.js';
import type { SelectionRulesInput } from './contracts/selection.js';
import type { TestFileModel } from './test-model.js';
import type { SpendGuard } from './spend.js';

/**
 * The newest plugin API this version of core speaks. A plugin built against this core declares it
 * as its `apiVersion`.
 */
export const API_VERSION = 1;

/**
 * The oldest plugin API this core still loads. An API version stays loadable for at least one
 * API version after the one that deprecates its hooks or fields (docs/compatibility.md).
 */
export const MIN_API_VERSION = 1;

/** An inclusive range of plugin API versions. */
export interface ApiRange {
  readonly min: number;
  readonly max: number;
}

export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

export interface PluginBase {
  /** Equals the package name for published plugins; `suture:<name>` for built-ins. */
  readonly name: string;
  /**
   * The plugin API the plugin was written against: the `API_VERSION` exported by the
   * `@suture/core` it was built with. On its own it means "this version exactly"; core loads the
   * plugin when it still speaks that version (from `MIN_API_VERSION` to `API_VERSION`).
   */
  readonly apiVersion: number;
  /**
   * Every plugin API version the plugin works with, when it was tested against more than one
   * (it must include `apiVersion`): `{ min: 1, max: 2 }`. Core loads the plugin when the two
   * ranges meet and tells it the version in use through `PluginFactoryContext.apiVersion`.
   */
  readonly apiRange?: ApiRange;
}

/** The second argument of every plugin factory: `pytest(options, context)`. */
export interface PluginFactoryContext {
  /** Absolute folder of the config file: resolve paths given in options from here. */
  configDir: string;
  /** The newest plugin API of the loading core (`API_VERSION`); a plugin with an `apiRange` adapts to it. */
  apiVersion?: number;
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
  /**
   * Project-relative test files a run of the whole suite leaves out (the files other shards of a
   * split project run). Only passed, and only without a selection, to a runner with
   * `supportsFileSelection`.
   */
  exclude?: string[];
  /** Wall-clock limit for the whole run; the runner kills its process group when it is reached. */
  timeoutMs: number;
  /** Aborted when the gate is cancelled; the runner must kill its processes and return promptly. */
  signal: AbortSignal;
  logger: Logger;
  /** A private scratch folder for this run (reports, temp files); created by the engine. */
  workDir: string;
  /**
   * Absolute path of a file to write a recording to (`RecordingSchema` of `@suture/core`): per
   * test, the lines of each file it ran. Only passed to a runner with `supportsRecording`, and
   * only for a run of the user's own code (the initial run). Recording may add a coverage tracer
   * and nothing else the tests can see; a runner that cannot record here writes `unavailable`.
   */
  record?: string;
  /** Called as each test finishes, when the runner can stream results. Optional. */
  onTestResult?: (test: TestResult) => void;
  /**
   * Called as soon as the runner sees that a test failed, before that test's result is complete
   * (a runner that must read more before it reports the result, such as a binary's listing).
   * The engine starts getting ready to heal. Optional; a failing `onTestResult` counts too.
   */
  onFailing?: () => void;
}

export interface DetectedProject {
  /** Suggested project name. */
  name: string;
  /** Runner options to write into the config, if any. */
  options?: Record<string, unknown>;
  /** Why this folder was detected, for `suture init` output. */
  reason: string;
  /**
   * Lines `suture init` prints under the project: why an option was chosen, or a warning the user
   * should act on. The written config is JSON, which has no comments, so the console says it.
   */
  notes?: string[];
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
  /**
   * True when a selection entry may also be a project-relative test file (as test ids name it),
   * which runs every test in that file: what `suture run --shard` uses to split a large project
   * by test file. Absent means test ids only.
   */
  readonly supportsFileSelection?: boolean;
  /** True when `run` honours `ctx.record`. Absent means it never records. */
  readonly supportsRecording?: boolean;
  run(ctx: RunContext): Promise<RunResultInput>;
  /**
   * What selection by change (`suture run --changed`) must know of a project of this runner: the
   * toolchain's identity (a record made under another is not used), the files whose change runs
   * every test (build and dependency files, shared test setup), and why recording is not possible
   * here, if it is not. Core does the rest: the change from git, the record's storage and merge,
   * and the rules that pick tests from it. Called once per project of a run that selects or
   * records, outside the sandbox. Optional: without it the project always runs whole.
   */
  selectionRules?(root: string): Promise<SelectionRulesInput>;
  /** Does `dir` hold a project of this runner? Used by `suture init`. */
  detect?(dir: string): Promise<DetectedProject | null>;
  /** The analyzer that fits this runner's results (used unless the config names another). */
  analyzer?(): Analyzer;
  /** Toolchain checks for `suture doctor`. */
  doctor?(root: string): Promise<DoctorCheck[]>;
  /**
   * Absolute paths the runner's processes read that may lie in the user's home: a toolchain's
   * caches (Go's build and module caches), which the runner also names in its processes'
   * environment. The sandbox gives the runs a private, empty HOME and hides the rest of the real
   * one; paths named here stay visible. Where the sandbox can mount an overlay, each folder named
   * is seen under a private writable layer that the runs of one gate share and that is thrown
   * away with it: the toolchain reads the user's cache and writes its own entries, and the user's
   * copy never changes. Elsewhere they are read-only, as the config's `sandboxHome` entries are.
   * Called once per project before its first run, outside the sandbox. Optional; a throw shares
   * nothing.
   */
  sandboxPaths?(root: string): Promise<string[]>;
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
  /**
   * Does this edit make the file reach into the test framework or the runner? Called by the
   * engine for every file a proposal changes (code under test, helpers, headers and tests alike),
   * before anything is written, with the file's content before (undefined for a new file) and
   * after. A short reason (what was added, where) when the edit adds a way for the code to report
   * its own success or to end the run early: reaching the framework's modules, frames or objects
   * (`gc` walks, frame walks), forking and exiting, exit handlers, defining or undefining test
   * macros, skipping from code under test, replacing `expect`/`test` globals, printing result
   * lines. Undefined when it does not, or when the analyzer cannot tell. Only what the edit adds
   * counts: code that did it before and still does is not the edit's doing. Pure and synchronous;
   * a reason refuses the proposal unless `heal.allowTestWeakening` is set.
   */
  checkTampering?(file: string, before: string | undefined, after: string): string | undefined;
  /**
   * The tests of a test file and the assertions each makes, for the weakening guard: it compares
   * the model of a file before and after a proposal (every assertion kept, reachable, not
   * swallowed, not redefined, still depending on the code it called; no test deleted, skipped or
   * newly mocking the code under test; helpers and case rows kept). Undefined for a file the
   * analyzer does not read: an edited test file that no model reads is reported as unread, and a
   * proposal that edits only such files is refused. An analyzer with more than one reader (a
   * syntax tree, and text rules for a file that does not parse) names the one it used in the
   * model's `reader`; the engine then asks for the other version by that name (`reader`), so
   * that both versions are read alike. Pure and synchronous; a throw means "cannot tell".
   */
  testModel?(file: string, content: string, reader?: string): TestFileModel | undefined;
}

// ---------------------------------------------------------------------------------------------
// Fixer

export interface FixerContext {
  signal: AbortSignal;
  logger: Logger;
  /** Absolute project root (read-only for the fixer). */
  root: string;
  /**
   * Globs relative to `root` of files a fixer must never read or send (`.env*`, `.envrc`, the
   * credential files of npm, netrc, PyPI, git, docker and Terraform, `credentials*`, keys,
   * certificates, `.git/`, `.suture/`, the config's `secrets.files`): for fixers with file tools,
   * which must not read outside `root` either (`HOME_PRIVATE_PATHS` of `@suture/core/llm` names the
   * home's credential files, for a tool whose own settings may open the home).
   */
  privatePaths?: readonly string[];
  /** The run's spend budget, shared by every fixer: ask it before each paid call. */
  spend?: SpendGuard;
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

// ---------------------------------------------------------------------------------------------
// Generator

export interface GenerateRequest {
  project: { name: string; root: string; language?: string };
  /** What the user asked for: `api` (tests from an OpenAPI document), `tests` (unit tests), or a generator's own goal. */
  goal: string;
  /** Project-relative inputs: the OpenAPI document, the source files to cover. */
  inputs: string[];
  /** Project-relative test files that already exist, so a generator adds instead of duplicating. */
  existingTests: string[];
  /** Generator options given on the command line, as given. */
  options: Record<string, unknown>;
  /**
   * Project-relative files that call into the inputs (from the analyzers' summaries), for a
   * generator that shows the target's use to a model. Absent when nothing was looked up.
   */
  callers?: string[];
  /**
   * Set from the second generation attempt on: what the earlier attempts left uncovered and why
   * their files were removed, so the next attempt aims at the rest (CoverUp's loop).
   */
  feedback?: GenerateFeedback;
}

export interface GenerateFeedback {
  /** 1-based attempt this request is for. */
  attempt: number;
  /** Target lines no existing or kept test runs yet, per project-relative file. */
  uncovered: Array<{ file: string; lines: number[] }>;
  /** Files of earlier attempts that were removed, and the filter's reason. */
  removed: Array<{ file: string; verdict: string; reason: string }>;
  /** Files of earlier attempts that were kept (existing tests now). */
  kept: string[];
}

export interface GeneratedFile {
  /** Project-relative POSIX path of a new file. */
  file: string;
  content: string;
}

export interface GeneratedTest {
  file: string;
  /** The test's name as the runner will report it (for the keep-or-remove filter and the report). */
  test: string;
  /** What it exercises: an endpoint, a function. */
  covers?: string;
}

export interface GenerateResult {
  files: GeneratedFile[];
  /** What the files are meant to test, test by test, and a summary for the report. */
  plan: { summary: string; tests: GeneratedTest[] };
  usage?: FixProposalInput['usage'];
}

export interface GeneratorContext {
  signal: AbortSignal;
  logger: Logger;
  /** Absolute project root (read-only for the generator). */
  root: string;
}

/**
 * Writes new tests for a project, as data: `generate` returns files and a plan and never writes.
 * The engine writes the files through its workspace, runs them with the project's runner, heals
 * only generated files, and keeps each test by a filter (it builds, passes repeatedly, adds
 * coverage); a test that shows a product bug is reported, never "fixed".
 */
export interface Generator extends PluginBase {
  /** Language of the tests it writes: 'python', 'cpp', 'javascript', ... */
  readonly language: string;
  generate(request: GenerateRequest, ctx: GeneratorContext): Promise<GenerateResult>;
  /** Credentials and binaries check for `suture doctor`. */
  doctor?(): Promise<DoctorCheck[]>;
}

export type Plugin = Runner | Analyzer | Fixer | Reporter | Generator;
export type PluginKind = 'runner' | 'analyzer' | 'fixer' | 'reporter' | 'generator';
