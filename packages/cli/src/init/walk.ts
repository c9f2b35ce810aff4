import { readdir, readFile, stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gitView, type GitView } from './git-view.js';

/** Why `suture init` did not look inside a folder. */
export type SkipReason = 'dependencies' | 'googletest' | 'virtualenv' | 'build' | 'submodule' | 'git-ignored';

export interface Walk {
  /** The git work tree's top folder, when the root is in one. */
  top: string | undefined;
  /** Folders to ask the runners about, parents before children, the root first. */
  folders: string[];
  /** Skipped folders (relative to the root) by reason, in walk order. */
  skipped: Map<SkipReason, string[]>;
}

// Third-party code kept in the repository or installed into it: its tests are not the project's.
const DEPENDENCIES = new Set([
  'node_modules',
  'bower_components',
  'third_party',
  'third-party',
  'thirdparty',
  'vendor',
  'vendored',
  'external',
  'extern',
  'deps',
  'site-packages',
]);
const GOOGLETEST_NAMES = new Set(['googletest', 'googlemock', 'gtest', 'gmock']);
// googletest's own listfiles: the distribution's top, googletest/ and googlemock/.
const GOOGLETEST_PROJECT = /^\s*project\s*\(\s*(googletest-distribution|gtest|gmock)\b/im;
const BUILD_NAME = /^(_?build(s|[-_.].*|[A-Z].*)?|cmake-build-.+|bazel-.+|out|dist)$/;
// suture's own folders and caches: skipped without a word.
const QUIET = new Set(['__pycache__', 'build-suture']);

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

async function skipReason(
  dir: string,
  name: string,
  git: GitView,
  includeSubmodules: boolean,
): Promise<SkipReason | undefined> {
  if (DEPENDENCIES.has(name)) return 'dependencies';
  if (GOOGLETEST_NAMES.has(name)) return 'googletest';
  const cmake = await readFile(join(dir, 'CMakeLists.txt'), 'utf8').catch(() => '');
  if (GOOGLETEST_PROJECT.test(cmake)) return 'googletest';
  if ((await exists(join(dir, 'pyvenv.cfg'))) || (await exists(join(dir, 'conda-meta')))) return 'virtualenv';
  if (BUILD_NAME.test(name) || (await exists(join(dir, 'CMakeCache.txt')))) return 'build';
  const submodule =
    git.submodules.has(dir) || (await stat(join(dir, '.git')).catch(() => undefined))?.isFile();
  if (submodule && !includeSubmodules) return 'submodule';
  if (git.ignored.has(dir)) return 'git-ignored';
  return undefined;
}

/**
 * The folders under `root` (down to `depth` levels) that may hold the repository's own projects:
 * dependencies, bundled GoogleTest, virtualenvs, build outputs, git-ignored folders and (unless
 * asked for) submodules are left out and said why. An included submodule is asked about with its
 * own git ignore rules.
 */
export async function walkFolders(
  root: string,
  options: { depth: number; includeSubmodules: boolean },
): Promise<Walk> {
  const folders: string[] = [];
  const skipped = new Map<SkipReason, string[]>();
  const visit = async (dir: string, depth: number, git: GitView): Promise<void> => {
    folders.push(dir);
    if (depth === 0) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      if (!e.isDirectory() || e.name.startsWith('.') || QUIET.has(e.name)) continue;
      const child = join(dir, e.name);
      const reason = await skipReason(child, e.name, git, options.includeSubmodules);
      if (reason) {
        skipped.set(reason, [...(skipped.get(reason) ?? []), relative(root, child)]);
        continue;
      }
      const own =
        git.submodules.has(child) || (await exists(join(child, '.git'))) ? await gitView(child) : git;
      await visit(child, depth - 1, own);
    }
  };
  const git = await gitView(root);
  await visit(root, options.depth, git);
  return { top: git.top, folders, skipped };
}

const SAID: Record<SkipReason, (n: number) => string> = {
  dependencies: (n) => `${n} ${n === 1 ? 'folder' : 'folders'} of dependencies or vendored code`,
  googletest: (n) => `${n} bundled GoogleTest ${n === 1 ? 'tree' : 'trees'}`,
  virtualenv: (n) => `${n} Python ${n === 1 ? 'virtualenv' : 'virtualenvs'}`,
  build: (n) => `${n} build output ${n === 1 ? 'folder' : 'folders'}`,
  submodule: (n) =>
    `${n} git ${n === 1 ? 'submodule' : 'submodules'} (pass --include-submodules to look inside)`,
  'git-ignored': (n) => `${n} git-ignored ${n === 1 ? 'folder' : 'folders'}`,
};

/** One line per reason: `skipped 2 build output folders: build, cmake-build-debug`. */
export function skipSummary(skipped: Walk['skipped'], shown = 6): string[] {
  const order = Object.keys(SAID) as SkipReason[];
  const found = order.flatMap((reason) => {
    const dirs = skipped.get(reason);
    return dirs ? [[reason, dirs] as const] : [];
  });
  return found.map(([reason, dirs]) => {
    const list =
      dirs.slice(0, shown).join(', ') + (dirs.length > shown ? `, and ${dirs.length - shown} more` : '');
    return `skipped ${SAID[reason](dirs.length)}: ${list}`;
  });
}
