import { lstat, readFile } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { toPosix } from '../paths.js';
import type { GuardTarget } from './tree-guard.js';

/**
 * What of a repository's `.git` runs code or changes what git does: its hooks, its config (a
 * `core.hooksPath`, `core.fsmonitor`, an alias or a filter runs a program) and `info/`
 * (attributes that pick a filter). Refs, objects and the index are left alone: the user's own
 * git commands write them while suture runs.
 */
const WATCHED = ['hooks', 'config', 'info'];

/** The guard target of `repoRoot`'s git folder (a `.git` file's `gitdir:` followed), if there is one. */
export async function gitDirTarget(repoRoot: string): Promise<GuardTarget | undefined> {
  const dotGit = join(repoRoot, '.git');
  const s = await lstat(dotGit).catch(() => undefined);
  if (!s) return undefined;
  let dir = dotGit;
  if (s.isFile()) {
    const line = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8').catch(() => ''));
    if (!line?.[1]) return undefined;
    dir = isAbsolute(line[1].trim()) ? line[1].trim() : resolve(repoRoot, line[1].trim());
  } else if (!s.isDirectory()) return undefined;
  const rel = toPosix(relative(repoRoot, dir));
  return { root: dir, label: rel.startsWith('..') ? toPosix(dir) : rel, watch: 'files', only: WATCHED };
}
