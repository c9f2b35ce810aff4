import type { AuditLog } from '../audit.js';

/** Hit counts of one file's lines (1-based) and branches (a tool's own stable key per branch). */
export interface FileCoverage {
  lines: Map<number, number>;
  branches: Map<string, number>;
}

/** Coverage of the target files, by project-relative POSIX path. */
export type CoverageData = Map<string, FileCoverage>;

export interface CoverageRequest {
  /** Absolute project root. */
  root: string;
  /** Project-relative files to measure. */
  target: string[];
  /**
   * Generated test files to run alone (for C/C++ their CTest entries too). Undefined runs the
   * project's own suite, as it was before the run: the baseline.
   */
  tests?: { files: string[]; entries: string[] };
  /** A private scratch folder for this measurement. */
  workDir: string;
  /** A scratch folder kept across measurements of one run (a coverage build). */
  cacheDir: string;
  timeoutMs: number;
  signal?: AbortSignal;
  env: NodeJS.ProcessEnv;
  audit: AuditLog;
}

/**
 * Measures line and branch coverage of the target by running tests under a coverage tool. It
 * runs the project's own toolchain with the tool's switches in a scratch folder of the run and
 * writes nothing into the project but what the tool itself leaves in the build output.
 */
export interface CoverageProbe {
  /** The tool, for the report: 'coverage.py', 'gcovr', 'istanbul'. */
  readonly tool: string;
  measure(request: CoverageRequest): Promise<CoverageData>;
}

/** A coverage tool that is missing or failed: the message says what to install or what broke. */
export class CoverageError extends Error {
  override name = 'CoverageError';
}

export const emptyFile = (): FileCoverage => ({ lines: new Map(), branches: new Map() });
