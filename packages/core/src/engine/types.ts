import type { BudgetConfig } from '../api/contracts/budget.js';
import type { HealConfig } from '../api/contracts/config.js';
import type { SecretsConfig } from '../api/contracts/secrets.js';
import type { GateReport } from '../api/contracts/report.js';
import type { Analyzer, Fixer, GateMode, Logger, Reporter, Runner } from '../api/plugin.js';
import type { SandboxChoice, WorkspaceChoice } from '../safety/workspace/types.js';

/** A project ready to gate: plugins loaded (and wrapped), paths absolute, settings merged. */
export interface GateProject {
  name: string;
  /** Absolute project root. */
  root: string;
  runner: Runner;
  analyzer: Analyzer;
  timeoutMs: number;
  heal: HealConfig;
}

/** How the initial runs choose their tests (config `select` and `record`, `suture run --changed`). */
export interface SelectionOptions {
  /** `changed`: only what the change since `ref` can reach; `all`: the whole suite. */
  mode: 'all' | 'changed';
  /** The commit to compare with; default: the merge base of HEAD with the default branch. */
  ref?: string;
  /**
   * Green runs add to the selection record. `auto`: only the runs of a whole suite that selection
   * fell back to (no usable record), which makes the record the next run selects from.
   */
  record: boolean | 'auto';
}

export interface GateOptions {
  /** Absolute repository root: where `.suture/` (journal, lock, runs) lives. Usually the config file's folder. */
  root: string;
  /** Absolute folder for run folders (`<root>/.suture/runs` by default). */
  outputDir: string;
  mode: GateMode;
  projects: GateProject[];
  /** The fixer ladder, asked in order. */
  fixers: Fixer[];
  reporters: Reporter[];
  concurrency: number;
  logger: Logger;
  signal?: AbortSignal;
  /** Defaults to a timestamp-based id. */
  runId?: string;
  /** false: failures that remain exit 0 and the report says what would have blocked (default true). */
  blocking?: boolean;
  /** Environment used for secret redaction (defaults to process.env). */
  env?: NodeJS.ProcessEnv;
  /** What the run may spend on LLM calls, across all fixers and projects (config `budget`). */
  budget?: BudgetConfig;
  /** Secret names, value formats and files beyond the built-in ones (config `secrets`). */
  secrets?: SecretsConfig;
  /**
   * Where heals are validated (config `workspace`). Default `in-place`: the journaled tree, as
   * an engine that runs the gate on a copy of its own wants; the CLI passes the config's `auto`.
   */
  workspace?: WorkspaceChoice;
  /** How the runs are sandboxed (config `sandbox`). Default `off`; the CLI passes the config's `auto`. */
  sandbox?: SandboxChoice;
  /** Environment variables passed into the sandbox by name (config `sandboxEnv`). */
  sandboxEnv?: readonly string[];
  /** Paths of the real home shared read-only with the sandbox (config `sandboxHome`). */
  sandboxHome?: readonly string[];
  /** Test selection by change and recording; absent runs every test and records nothing. */
  selection?: SelectionOptions;
}

export type RunGate = (options: GateOptions) => Promise<GateReport>;
