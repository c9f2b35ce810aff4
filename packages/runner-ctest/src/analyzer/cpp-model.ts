import { access, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { ParseCache, type Grammar } from '@suture/core/analysis';

// loaded by the first parse, not when the analyzer is built: a green run never parses
const grammar = (): Grammar => createRequire(import.meta.url)('tree-sitter-cpp') as Grammar;
/** A tree-sitter parser for C and C++ keeping the last `keep` trees by content. */
export const createCppCache = (keep = 2000): ParseCache => new ParseCache(grammar, keep);

const SOURCE = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|inc|ipp|tpp)$/;
/** Is this a C or C++ source or header, by its name? */
export const isCppSource = (file: string): boolean => SOURCE.test(file);
/** Folders of other people's code and of builds: read only when the build compiles them. */
const SKIP_DIRS = new Set([
  '.git',
  'node_modules',
  '.suture',
  'build',
  'build-suture',
  'cmake-build-debug',
  'cmake-build-release',
  '_deps',
  'third_party',
  'third-party',
  'thirdparty',
  'external',
  'extern',
  'vendor',
]);
const MAX_FILES = 20_000;

export interface ProjectFiles {
  /** C and C++ sources and headers, project-relative. */
  sources: string[];
  /** Every CMakeLists.txt, project-relative. */
  cmakeLists: string[];
}

/** The project's C/C++ files and CMake lists (build, vendored and hidden folders skipped). */
export async function projectFiles(root: string): Promise<ProjectFiles> {
  const out: ProjectFiles = { sources: [], cmakeLists: [] };
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (out.sources.length > MAX_FILES) return;
      if (e.isDirectory()) {
        if (SKIP_DIRS.has(e.name) || e.name.startsWith('.')) continue;
        // a build folder under any name holds CMake's cache
        const built = await access(join(dir, e.name, 'CMakeCache.txt')).then(
          () => true,
          () => false,
        );
        if (!built) await walk(join(dir, e.name), posix.join(rel, e.name));
      } else if (SOURCE.test(e.name)) out.sources.push(posix.join(rel, e.name));
      else if (e.name === 'CMakeLists.txt') out.cmakeLists.push(posix.join(rel, e.name));
    }
  };
  await walk(root, '');
  return out;
}
