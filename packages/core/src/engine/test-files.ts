import type { Scope, ScopeInput, ScopeRole } from '../api/contracts/failure.js';
import type { Analyzer } from '../api/plugin.js';
import { normalizeEditPath } from '../safety/paths.js';

/** Roles in which an analyzer puts a file it knows to be a test or test infrastructure. */
const TEST_SIDE: ReadonlySet<ScopeRole> = new Set(['test', 'fixture']);

/**
 * Is this project-relative path a test file? The analyzer decides, with its language's conventions.
 * An analyzer without `isTestFile` has still told which files hold the failing tests and their
 * fixtures: the roles of its scope entries. Core guesses no language's naming on its behalf, so a
 * file no scope entry names as a test is code under test.
 */
export function isTestFile(file: string, analyzer?: Analyzer, scope?: Scope | ScopeInput): boolean {
  if (analyzer?.isTestFile) return analyzer.isTestFile(file);
  const wanted = normalizeEditPath(file);
  if (!wanted.ok || !scope) return false;
  return scope.entries.some((e) => {
    const named = normalizeEditPath(e.file);
    return named.ok && named.path === wanted.path && TEST_SIDE.has(e.role);
  });
}
