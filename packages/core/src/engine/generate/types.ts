import type { RollbackStrategy } from '../../api/contracts/autorun.js';
import type { SandboxChoice } from '../../safety/workspace/types.js';
import type { Fixer, Generator as TestGenerator, Logger } from '../../api/plugin.js';
import type { GateProject } from '../types.js';
import type { CoverageProbe } from './measure/probe.js';

/** Where the generated files come from: a generator plugin, or a user's own command. */
export type GenerationSource =
  | {
      kind: 'generator';
      generator: TestGenerator;
      /** Generator options, passed as `request.options`. */
      options?: Record<string, unknown>;
    }
  | {
      kind: 'command';
      /** Run through `sh -c` in the project root. */
      command: string;
      /** Project-relative globs of the files the command writes. */
      generated: string[];
    };

export interface AutoRunOptions {
  /** Absolute repository root: where `.suture/` lives. */
  root: string;
  /** Absolute folder of run folders (`<root>/.suture/runs`). */
  outputDir: string;
  project: GateProject;
  source: GenerationSource;
  /** Project-relative source files whose coverage the generated tests must raise. */
  target: string[];
  /** The fixer ladder that heals generated files. */
  fixers: Fixer[];
  logger: Logger;
  signal?: AbortSignal;
  runId?: string;
  /** Heals per generated file (default 2); 0 keeps only what compiles and passes as written. */
  maxFixAttempts?: number;
  /** Runs in a row a generated test must pass (default 3). */
  flakeRuns?: number;
  /** Generation attempts, each given what the earlier ones left uncovered (default 2; 1 for a command). */
  generations?: number;
  rollback?: RollbackStrategy;
  /** Replaces the coverage tool chosen by the runner's language. */
  coverage?: CoverageProbe;
  /** C/C++: libraries the generated GoogleTest programs link (default: those the project's tests link). */
  cmakeLink?: string[];
  /** Environment of the coverage and external commands (default process.env), less its secrets. */
  env?: NodeJS.ProcessEnv;
  /** How the commands are confined (the config's `sandbox`; default auto). */
  sandbox?: SandboxChoice;
  /** Variables passed into the sandbox by name (the config's `sandboxEnv`). */
  sandboxEnv?: readonly string[];
  /** Extra secret names (the config's `secrets.names`): never passed to the commands. */
  secretNames?: readonly RegExp[];
}

/** One generated file on its way through the filter. */
export interface Candidate {
  file: string;
  generation: number;
  /** Test ids the generator's plan names for the file. */
  planned: string[];
  covers?: string;
  /** For C/C++: the CTest entry and CMake target of its program. */
  entry?: string;
}
