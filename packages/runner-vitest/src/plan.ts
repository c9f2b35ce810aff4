import { resolve } from 'node:path';
import { escapeRegex, namePattern, selectedNames, type TestPlace } from './ids.js';
import type { ResolvedVitestOptions } from './options.js';

/**
 * What reporter/vitest-entry.mjs reads: the command line a plain `vitest run` would have (`args`),
 * and what suture adds to the options Vitest parsed from it, which the tests never see.
 */
export interface VitestPlan {
  vitestBin: string;
  vitestNode: string;
  args: string[];
  /** Set as given on the options Vitest parsed from `args`. */
  options: Record<string, unknown>;
  events: string;
  setupFile: string;
  /** Run exactly these test files (absolute paths), in place of the filters of `args`. */
  files?: string[];
  /** Test name pattern for a selection. */
  names?: string;
  /** A lookahead put ahead of the test name pattern, that rules out the tests that hung. */
  excludeNames?: string;
  /** Run these Vitest projects only (`--project`). */
  projects?: string[];
}

export interface PassSpec {
  /**
   * The tests asked for (files relative to the root), or undefined for the whole suite. An entry
   * whose `fullName` is empty asks for its whole file.
   */
  selection?: TestPlace[];
  /** A later pass of the whole suite: the test files (absolute) that have not ended yet. */
  remaining?: string[];
  /** Absolute paths of test files that need no further run. */
  skipFiles: ReadonlySet<string>;
  /** Full names (` > ` joined) of the tests that hung. */
  skipNames: ReadonlySet<string>;
}

/** A lookahead that rules out exactly these full names. */
function excluding(fullNames: Iterable<string>): string {
  const one = (n: string): string => n.split(' > ').map(escapeRegex).join('(?: | > )');
  return `^(?!(?:${[...fullNames].map(one).join('|')})$)`;
}

/** The plan of one pass: the whole suite or the selection, less what earlier passes settled. */
export function planPass(
  root: string,
  options: ResolvedVitestOptions,
  io: { vitestBin: string; vitestNode: string; events: string; setupFile: string },
  spec: PassSpec,
): VitestPlan {
  const overrides: Record<string, unknown> = {
    ...(options.config ? { config: resolve(root, options.config) } : {}),
    ...(options.testTimeoutMs !== undefined ? { testTimeout: options.testTimeoutMs } : {}),
    // a later pass may find that what is left is only what hung
    ...(spec.remaining || spec.skipNames.size > 0 ? { passWithNoTests: true } : {}),
  };
  const plan: VitestPlan = { ...io, args: options.args, options: overrides };
  if (spec.selection) {
    const left = spec.selection.filter((s) => !spec.skipNames.has(s.fullName));
    plan.files = [...new Set(left.map((s) => resolve(root, s.file)))].filter((f) => !spec.skipFiles.has(f));
    const named = spec.selection.filter((s) => s.fullName !== '');
    if (named.length > 0) plan.names = namePattern(named.flatMap(selectedNames));
    const projects = new Set(spec.selection.map((s) => s.project));
    if (projects.size > 0 && !projects.has(undefined)) plan.projects = [...projects] as string[];
  } else if (spec.remaining) {
    plan.files = spec.remaining.filter((f) => !spec.skipFiles.has(f));
  }
  if (spec.skipNames.size > 0) plan.excludeNames = excluding(spec.skipNames);
  return plan;
}
