import { execFile } from 'node:child_process';
import { relative, resolve } from 'node:path';
import { promisify } from 'node:util';
import { toPosix } from '../../safety/paths.js';
import { SUTURE_DIR } from '../../safety/suture-dir.js';

const exec = promisify(execFile);
// Nothing the user's configuration says may run from here (fsmonitor, external diff, pagers).
const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', '--no-optional-locks'];

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await exec('git', [...SAFE, ...args], {
    cwd,
    maxBuffer: 256 * 1024 * 1024,
    encoding: 'utf8',
  });
  return stdout;
}

const ok = (p: Promise<string>): Promise<string | undefined> =>
  p.then(
    (s) => s.trim(),
    () => undefined,
  );

/** The commit a change is measured against, and how it was found. */
export interface ResolvedBase {
  commit: string;
  source: string;
}

/**
 * `ref` as a commit, or, without one, the merge base of HEAD with the default branch: the
 * branch `origin/HEAD` points to, else `main`, else `master`.
 */
export async function resolveBase(cwd: string, ref?: string): Promise<ResolvedBase> {
  if (ref !== undefined) {
    const commit = await ok(git(cwd, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]));
    if (!commit) throw new Error(`--changed ${ref}: git knows no commit by that name`);
    return { commit, source: `given: ${ref}` };
  }
  if (!(await ok(git(cwd, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']))))
    throw new Error('the repository has no commit yet; name the commit to compare with: --changed <ref>');
  const originHead = await ok(git(cwd, ['symbolic-ref', '--quiet', 'refs/remotes/origin/HEAD']));
  const candidates = [
    ...(originHead ? [originHead.replace(/^refs\/remotes\//, '')] : []),
    'main',
    'master',
    'origin/main',
    'origin/master',
  ];
  for (const branch of candidates) {
    if (!(await ok(git(cwd, ['rev-parse', '--verify', '--quiet', `${branch}^{commit}`])))) continue;
    const base = await ok(git(cwd, ['merge-base', 'HEAD', branch]));
    if (base) return { commit: base, source: `merge base of HEAD and ${branch}` };
  }
  throw new Error(
    'no default branch to compare with (neither origin/HEAD, main nor master); name the commit: --changed <ref>',
  );
}

/**
 * Files of the working tree that differ from `commit`, relative to `root` (POSIX): committed
 * since, staged, unstaged, deleted, or untracked and not ignored. Paths outside `root` come out
 * with a leading `../`.
 */
export async function changedSince(root: string, commit: string): Promise<string[]> {
  const top = resolve((await git(root, ['rev-parse', '--show-toplevel'])).trim());
  const diff = await git(top, ['diff', '--name-only', '--no-renames', '-z', commit, '--']);
  const untracked = await git(top, ['ls-files', '-z', '--others', '--exclude-standard']);
  const names = new Set(
    [...diff.split('\0'), ...untracked.split('\0')]
      .filter(Boolean)
      .map((n) => toPosix(relative(root, resolve(top, n)))),
  );
  // suture's own folder (records, runs, the journal) is never a change to the projects
  return [...names].filter((n) => n !== SUTURE_DIR && !n.startsWith(`${SUTURE_DIR}/`)).sort();
}

/** The commit HEAD names (undefined in a repository without one). */
export async function headCommit(root: string): Promise<string | undefined> {
  return ok(git(root, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']));
}

/** Does git know this commit (a shallow clone may not)? */
export async function hasCommit(root: string, commit: string): Promise<boolean> {
  return (await ok(git(root, ['cat-file', '-e', `${commit}^{commit}`]))) !== undefined;
}

/** Files under `dir` git tracks or would track (untracked, not ignored), relative to `root`. */
export async function listedFiles(root: string, dir: string): Promise<string[]> {
  const out = await git(dir, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']);
  return out
    .split('\0')
    .filter(Boolean)
    .map((n) => toPosix(relative(root, resolve(dir, n))));
}

/** A file (relative to `root`) as `commit` holds it; undefined when it holds none. */
export async function fileAt(root: string, commit: string, file: string): Promise<string | undefined> {
  return git(root, ['cat-file', 'blob', `${commit}:./${file}`]).catch(() => undefined);
}
