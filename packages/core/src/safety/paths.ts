import { lstat, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import { picomatch } from '../text/glob.js';

/** Paths no fix may ever write, whatever the config says. */
export const ALWAYS_DENIED: readonly string[] = [
  '.git/**',
  '**/.git/**',
  '.suture/**',
  '**/.suture/**',
  '**/node_modules/**',
  '**/.venv/**',
  '**/venv/**',
  '**/__pycache__/**',
  '**/build-suture/**',
];

export function toPosix(path: string): string {
  return path.split(sep).join('/');
}

/**
 * Checks a project-relative path coming from a fixer and returns the normalized form, or the
 * reason it is refused. Pure: symlinks are checked by `resolveRealPath`.
 */
export function normalizeEditPath(path: string): { ok: true; path: string } | { ok: false; reason: string } {
  if (path.length === 0) return { ok: false, reason: 'empty path' };
  if (path.includes('\0')) return { ok: false, reason: 'path contains a NUL byte' };
  if (path.length > 1024) return { ok: false, reason: 'path longer than 1024 characters' };
  if (isAbsolute(path) || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\'))
    return { ok: false, reason: `absolute path ${JSON.stringify(path)}` };
  const slashed = path.replace(/\\/g, '/');
  if (slashed.split('/').includes('..'))
    return { ok: false, reason: `path ${JSON.stringify(path)} climbs out with ".."` };
  const normalized = posix.normalize(slashed).replace(/^\.\//, '');
  if (normalized === '.' || normalized.endsWith('/'))
    return { ok: false, reason: `path ${JSON.stringify(path)} is a folder` };
  return { ok: true, path: normalized };
}

export function matcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  // nocase: a fix must not reach `.GIT/config` on a case-insensitive filesystem.
  return picomatch([...globs], { dot: true, nocase: true });
}

/** The first glob of `denied` (plus the built-in denials) that matches, if any. */
export function deniedBy(path: string, denied: readonly string[]): string | undefined {
  for (const glob of [...ALWAYS_DENIED, ...denied]) if (matcher([glob])(path)) return glob;
  return undefined;
}

/** The two filesystem calls a path check makes: the local ones, or a workspace view's. */
export interface PathFs {
  lstat(path: string): Promise<{ isSymbolicLink(): boolean; isFile(): boolean }>;
  realpath(path: string): Promise<string>;
}

const LOCAL_FS: PathFs = { lstat, realpath };

/**
 * Where a write to `rel` really lands, relative to the real root, with symbolic links inside the
 * root resolved (`inner/app.py` when `inner -> src` is `src/app.py`). Checks and the journal use
 * this path, so a link can neither reach a denied folder (`hooks -> .git/hooks`) nor make one file
 * two journal entries. Refused: a path whose existing part resolves outside the root, a path that
 * is itself a symlink (writing through it would change its target), and a path below a dangling
 * symlink (its folders could not be made, or would be made wherever the link points).
 */
export async function resolveRealPath(
  root: string,
  rel: string,
  fs: PathFs = LOCAL_FS,
): Promise<{ ok: true; path: string } | { ok: false; reason: string }> {
  const realRoot = await fs.realpath(root);
  const abs = join(root, rel);
  try {
    const st = await fs.lstat(abs);
    if (st.isSymbolicLink()) return { ok: false, reason: `${rel} is a symbolic link` };
    if (!st.isFile()) return { ok: false, reason: `${rel} is not a regular file` };
  } catch {
    // does not exist yet: check the deepest existing ancestor
  }
  let probe = abs;
  for (;;) {
    try {
      const real = await fs.realpath(probe);
      const inside = relative(realRoot, real);
      if (inside.startsWith('..') || isAbsolute(inside))
        return { ok: false, reason: `${rel} resolves outside the project root (through a symbolic link)` };
      return { ok: true, path: toPosix(join(inside, relative(probe, abs))) };
    } catch {
      // Missing is fine (a new file or folder); present but unresolvable is a symbolic link to
      // nowhere (or a loop), which creating the folders of a new file would have to go through.
      if (
        await fs.lstat(probe).then(
          () => true,
          () => false,
        )
      )
        return {
          ok: false,
          reason: `${toPosix(relative(root, probe)) || rel} is a symbolic link that does not resolve`,
        };
      const parent = dirname(probe);
      if (parent === probe) return { ok: false, reason: `${rel} cannot be resolved` };
      probe = parent;
    }
  }
}

/** Why a write to `rel` is refused (see `resolveRealPath`), or undefined when it may go ahead. */
export async function checkRealPath(root: string, rel: string): Promise<string | undefined> {
  const real = await resolveRealPath(root, rel);
  return real.ok ? undefined : real.reason;
}
