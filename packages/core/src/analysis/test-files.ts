import { posix } from 'node:path';

/**
 * How one language names its test files and where it keeps them. An analyzer states these once
 * and builds its `isTestFile` and the roles of its scope from the same matcher, so the edit policy,
 * the weakening guard and the scope never disagree about a file.
 */
export interface TestFileConventions {
  /** Extensions, with the dot, that the name patterns apply to: `['.py']`, `['.c', '.cpp', ...]`. */
  extensions: readonly string[];
  /** Base-name prefixes of a test file: `test_` (test_cart.py). */
  prefixes?: readonly string[];
  /** Suffixes of the name before its extension: `_test`, `-test`, `.spec` (cart.spec.ts). Case-sensitive. */
  suffixes?: readonly string[];
  /**
   * Exact base names of test infrastructure that runs with the tests and changes what they
   * check (`conftest.py`): on the test side of the edit policy, like a test.
   */
  infrastructure?: readonly string[];
  /** Folder names whose files, at any depth and of any extension, are on the test side: `tests`, `__tests__`. */
  folders?: readonly string[];
}

/** A project-relative path as the matcher reads it: POSIX separators, no leading `./`. */
function clean(file: string): string {
  return posix.normalize(file.split('\\').join('/')).replace(/^(\.\/)+/, '');
}

/**
 * A test-file predicate for project-relative paths, built from a language's conventions. A file is
 * a test file when its base name is listed infrastructure, when one of its folders is a test
 * folder, or when it has one of the extensions and a test prefix or suffix.
 */
export function testFileMatcher(conventions: TestFileConventions): (file: string) => boolean {
  const infrastructure = new Set(conventions.infrastructure ?? []);
  const folders = new Set(conventions.folders ?? []);
  // longest first: `.test.tsx` must not be read as extension `.tsx` with stem `x.test` missing
  const extensions = [...conventions.extensions].sort((a, b) => b.length - a.length);
  const prefixes = conventions.prefixes ?? [];
  const suffixes = conventions.suffixes ?? [];
  return (file: string): boolean => {
    const parts = clean(file).split('/');
    const base = parts.pop() ?? '';
    if (infrastructure.has(base)) return true;
    if (parts.some((dir) => folders.has(dir))) return true;
    const ext = extensions.find((e) => base.endsWith(e) && base.length > e.length);
    if (!ext) return false;
    const stem = base.slice(0, -ext.length);
    return (
      prefixes.some((p) => stem.startsWith(p) && stem.length > p.length) ||
      suffixes.some((s) => stem.endsWith(s) && stem.length > s.length)
    );
  };
}
