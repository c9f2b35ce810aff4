import { readdir } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/** Folders a walk of a repository never enters: dependencies, git's and suture's, virtualenvs. */
export const WALK_SKIP = new Set([
  'node_modules',
  '.git',
  '.suture',
  '.venv',
  'venv',
  '__pycache__',
  'build',
]);
const WALK_DEPTH = 6;
const WALK_FILES = 20_000;

/**
 * Files under `root` whose root-relative POSIX path `accept` takes, without descending into the
 * folders of `skip` (dependencies, git's), up to `limit` of them.
 */
export async function walkFiles(
  root: string,
  accept: (rel: string) => boolean,
  limit = WALK_FILES,
  skip: ReadonlySet<string> = WALK_SKIP,
): Promise<string[]> {
  const found: string[] = [];
  let seen = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (++seen > WALK_FILES || found.length >= limit) return;
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < WALK_DEPTH && !skip.has(e.name)) await walk(path, depth + 1);
      else if (e.isFile() && accept(relative(root, path).split(sep).join(posix.sep))) found.push(path);
    }
  };
  await walk(root, 0);
  return found;
}
