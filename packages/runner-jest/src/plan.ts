import { resolve, sep } from 'node:path';
import { escapeRegex, namePattern, selectedNames, type TestPlace } from './ids.js';
import type { ResolvedJestOptions } from './options.js';

/**
 * What reporter/jest-entry.cjs reads: the command line a plain `jest` run would have (`args`),
 * and what suture adds to the options Jest parsed from it, which the tests never see.
 */
export interface JestPlan {
  jestBin: string;
  args: string[];
  /** Set as given on the options Jest parsed from `args`. */
  argv: Record<string, unknown>;
  reporter: string;
  events: string;
  /**
   * reporter/suture-stack-start.cjs, which the entry loads in the Jest process and gives each of
   * Jest's worker processes, and the folder their stack helpers answer in.
   */
  stacks?: { start: string; dir: string };
  /** Run exactly these files (absolute paths), as --runTestsByPath does. */
  files?: string[];
  /** Test name pattern for a selection. */
  names?: string;
  /** A lookahead put ahead of every test path pattern, that rules out the files already run. */
  excludePaths?: string;
  /** A lookahead put ahead of the test name pattern, that rules out the tests that hung. */
  excludeNames?: string;
}

export interface PassSpec {
  /**
   * The tests asked for (files relative to the root), or undefined for the whole suite. An entry
   * whose `fullName` is empty asks for its whole file.
   */
  selection?: TestPlace[];
  /** Absolute paths of test files that need no further run: ended, or hung outside any test. */
  skipFiles: ReadonlySet<string>;
  /** Full names of the tests that hung. */
  skipNames: ReadonlySet<string>;
  /** A later pass: one that finds nothing left to run is not an error. */
  again: boolean;
}

/**
 * Every way Jest may write a file's path when it matches it against a path pattern: relative to
 * its rootDir (which may be a subfolder of the project), or absolute. Jest matches a pattern
 * against both and runs the file when either fits, so the lookahead has to rule out both.
 */
function pathForms(absFile: string): string[] {
  const parts = absFile.split(sep);
  return parts.map((_, i) => parts.slice(i).join(sep)).filter(Boolean);
}

/** The plan of one pass: the whole suite or the selection, less what earlier passes settled. */
export function planPass(
  root: string,
  options: ResolvedJestOptions,
  io: { jestBin: string; reporter: string; events: string; stacks?: { start: string; dir: string } },
  spec: PassSpec,
): JestPlan {
  const argv: Record<string, unknown> = {
    // the gate's own settings: fail on a missing snapshot rather than write one, and never watch
    ci: true,
    watch: false,
    watchAll: false,
    watchman: false,
    ...(spec.again ? { passWithNoTests: true } : {}),
    ...(options.config ? { config: resolve(root, options.config) } : {}),
    ...(options.runInBand ? { runInBand: true } : {}),
    ...(options.testTimeoutMs !== undefined ? { testTimeout: options.testTimeoutMs } : {}),
  };
  const plan: JestPlan = { ...io, args: options.args, argv };
  if (spec.selection) {
    const left = spec.selection.filter((s) => !spec.skipNames.has(s.fullName));
    plan.files = [...new Set(left.map((s) => resolve(root, s.file)))].filter((f) => !spec.skipFiles.has(f));
    // an entry without a test name is a whole file: every test in it runs
    const named = spec.selection.filter((s) => s.fullName !== '');
    if (named.length > 0) plan.names = namePattern(named.flatMap(selectedNames));
    // tests of named Jest projects run in those projects only (--selectProjects)
    const projects = new Set(spec.selection.map((s) => s.project));
    if (projects.size > 0 && !projects.has(undefined)) argv.selectProjects = [...projects];
  } else if (spec.skipFiles.size > 0) {
    const forms = [...spec.skipFiles].flatMap(pathForms).map(escapeRegex);
    plan.excludePaths = `^(?!(?:${forms.join('|')})$)`;
  }
  if (spec.skipNames.size > 0)
    plan.excludeNames = `^(?!(?:${[...spec.skipNames].map(escapeRegex).join('|')})$)`;
  return plan;
}
