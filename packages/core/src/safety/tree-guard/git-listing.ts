import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const BIG = 512 * 1024 * 1024;

/** A file as git's index holds it. */
export interface IndexEntry {
  /** 100644, 100755 or 120000 (a symbolic link). */
  mode: string;
  blob: string;
}

/** What git shows of a folder of a work tree, every path relative to that folder (POSIX). */
export interface GitListing {
  /** Files changed against the index or HEAD, deleted, or untracked and not ignored (when asked). */
  dirty: string[];
  /** Every file the index tracks, submodules left out. */
  tracked: Map<string, IndexEntry>;
  /** Ignored files and folders (a folder ends with `/`) git shows without walking into them. */
  ignored: Set<string>;
}

// Nothing the user's configuration says may run from here (fsmonitor, external diff, pagers).
const SAFE = ['-c', 'core.fsmonitor=false', '-c', 'core.quotepath=off', '--no-optional-locks'];

async function git(cwd: string, args: readonly string[]): Promise<string> {
  const { stdout } = await exec('git', [...SAFE, ...args], { cwd, maxBuffer: BIG, encoding: 'utf8' });
  return stdout;
}

/** A blob's bytes, from the object store. */
export async function gitBlob(cwd: string, blob: string): Promise<Buffer> {
  const { stdout } = await exec('git', [...SAFE, 'cat-file', 'blob', blob], {
    cwd,
    maxBuffer: BIG,
    encoding: 'buffer',
  });
  return stdout;
}

/**
 * The folder's path inside its work tree (`''` at the top, else ending in `/`), or undefined
 * outside git, or in a folder the work tree ignores (git lists nothing of it).
 */
export async function workTreePrefix(root: string): Promise<string | undefined> {
  try {
    const inside = (await git(root, ['rev-parse', '--is-inside-work-tree'])).trim();
    if (inside !== 'true') return undefined;
    const prefix = (await git(root, ['rev-parse', '--show-prefix'])).trim();
    if (prefix === '') return prefix;
    const ignored = await exec('git', [...SAFE, 'check-ignore', '-q', '--', '.'], { cwd: root }).then(
      () => true,
      () => false,
    );
    return ignored ? undefined : prefix;
  } catch {
    return undefined;
  }
}

/**
 * Lists `root` (a folder of a work tree whose prefix is `prefix`) as git sees it now. git's
 * own stat cache makes this cheap on a large tree: only files whose stat changed are read, and
 * an mtime put back by hand still shows, as git compares the inode's change time too.
 */
export async function gitListing(
  root: string,
  prefix: string,
  options: { untracked: boolean },
): Promise<GitListing> {
  const status = git(root, [
    'status',
    '--porcelain=v1',
    '-z',
    '--no-renames',
    '--ignore-submodules=all',
    `--untracked-files=${options.untracked ? 'all' : 'no'}`,
    '--',
    '.',
  ]);
  const staged = git(root, ['ls-files', '-s', '-z', '--', '.']);
  const ignored = options.untracked
    ? // from the folder, without a pathspec: git 2.39 fails on `--directory -- .` in a subfolder
      git(root, ['ls-files', '-o', '-i', '--exclude-standard', '--directory', '-z'])
    : Promise.resolve('');
  const dirty: string[] = [];
  for (const record of (await status).split('\0')) {
    // porcelain paths are the work tree's, whatever folder git runs in
    const path = record.slice(3);
    if (record.length > 3 && path.startsWith(prefix)) dirty.push(path.slice(prefix.length));
  }
  const tracked = new Map<string, IndexEntry>();
  for (const record of (await staged).split('\0')) {
    const tab = record.indexOf('\t');
    if (tab < 0) continue;
    const [mode, blob] = record.slice(0, tab).split(' ');
    // a submodule is its own repository
    if (mode && blob && mode !== '160000') tracked.set(record.slice(tab + 1), { mode, blob });
  }
  return { dirty, tracked, ignored: new Set((await ignored).split('\0').filter(Boolean)) };
}
