import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const BIG = 512 * 1024 * 1024;

/** A file as a commit holds it. */
export interface IndexEntry {
  /** 100644, 100755 or 120000 (a symbolic link). */
  mode: string;
  blob: string;
}

/** What git shows of a folder of a work tree, every path relative to that folder (POSIX). */
export interface GitListing {
  /** Files changed against the index or HEAD, deleted, or untracked and not ignored (when asked). */
  dirty: string[];
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

/** Where a folder sits in its work tree. */
export interface WorkTreePlace {
  /** `''` at the top, else ending in `/`. */
  prefix: string;
  /** The commit checked out, when there is one: a file clean against it is got back from it. */
  head?: string;
}

/**
 * Where the folder sits in its work tree, or undefined outside git, or in a folder the work tree
 * ignores (git lists nothing of it).
 */
export async function workTreePlace(root: string): Promise<WorkTreePlace | undefined> {
  try {
    // one process in the common case: a work tree with a commit checked out
    const out = await git(root, [
      'rev-parse',
      '--is-inside-work-tree',
      '--show-prefix',
      'HEAD^{commit}',
    ]).catch(() => git(root, ['rev-parse', '--is-inside-work-tree', '--show-prefix']));
    const [inside, prefix = '', head] = out.split('\n').map((l) => l.trim());
    if (inside !== 'true') return undefined;
    const ignored =
      prefix !== '' &&
      (await exec('git', [...SAFE, 'check-ignore', '-q', '--', '.'], { cwd: root }).then(
        () => true,
        () => false,
      ));
    if (ignored) return undefined;
    return { prefix, ...(head && /^[0-9a-f]{40,64}$/.test(head) ? { head } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * The files (folder-relative) whose bytes differ from what commit `from` holds, when HEAD is no
 * longer `from` (a run that committed its changes leaves no trace in the status); none else.
 */
export async function movedFrom(root: string, from: string): Promise<string[]> {
  const head = await git(root, ['rev-parse', '-q', '--verify', 'HEAD^{commit}']).then(
    (out) => out.trim(),
    () => undefined,
  );
  if (head === from) return [];
  const changed = await git(root, [
    'diff',
    '--name-only',
    '-z',
    '--no-renames',
    '--relative',
    from,
    '--',
    '.',
  ]);
  return changed.split('\0').filter(Boolean);
}

/** The files of `paths` (folder-relative) that commit `head` holds, with their mode and blob. */
export async function committedFiles(
  root: string,
  head: string,
  paths: readonly string[],
): Promise<Map<string, IndexEntry>> {
  const out = new Map<string, IndexEntry>();
  for (let i = 0; i < paths.length; i += 500) {
    const listed = await git(root, ['ls-tree', '-z', head, '--', ...paths.slice(i, i + 500)]);
    for (const record of listed.split('\0')) {
      const tab = record.indexOf('\t');
      if (tab < 0) continue;
      const [mode, type, blob] = record.slice(0, tab).split(' ');
      // a submodule is its own repository
      if (mode && blob && type === 'blob') out.set(record.slice(tab + 1), { mode, blob });
    }
  }
  return out;
}

/**
 * Lists `root` (a folder of a work tree whose prefix is `prefix`) as git sees it now. git's
 * own stat cache makes this cheap on a large tree: only files whose stat changed are read, and
 * an mtime put back by hand still shows, as git compares the inode's change time too. A file it
 * does not list is as HEAD has it (or absent from HEAD, and untracked or ignored).
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
  return { dirty, ignored: new Set((await ignored).split('\0').filter(Boolean)) };
}
