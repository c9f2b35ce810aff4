import { lstat, mkdir, readFile, readlink, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { atomicWrite } from '../atomic.js';

/** One path as a snapshot saw it. */
export type FileState =
  | {
      kind: 'file';
      size: number;
      mtimeMs: number;
      /** The inode's change time: a write shows here even when the mtime is set back. */
      ctimeMs: number;
      ino: number;
      mode: number;
      /** The bytes, when they were within the snapshot's budget. */
      bytes?: Buffer;
    }
  | { kind: 'link'; target: string; ctimeMs: number }
  | { kind: 'dir'; ctimeMs: number }
  | { kind: 'absent' };

/** How a path is now, without its bytes. */
export async function stateOf(path: string): Promise<FileState> {
  let s;
  try {
    s = await lstat(path);
  } catch {
    return { kind: 'absent' };
  }
  if (s.isSymbolicLink()) return { kind: 'link', target: await readlink(path), ctimeMs: s.ctimeMs };
  if (s.isDirectory()) return { kind: 'dir', ctimeMs: s.ctimeMs };
  return {
    kind: 'file',
    size: s.size,
    mtimeMs: s.mtimeMs,
    ctimeMs: s.ctimeMs,
    ino: s.ino,
    mode: s.mode & 0o7777,
  };
}

/** Whether a path is still as it was: same kind, and for a file the same stat (bytes are not read). */
export function sameState(a: FileState, b: FileState): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 'file' && b.kind === 'file')
    return (
      a.size === b.size &&
      a.mtimeMs === b.mtimeMs &&
      a.ctimeMs === b.ctimeMs &&
      a.ino === b.ino &&
      a.mode === b.mode
    );
  if (a.kind === 'link' && b.kind === 'link') return a.target === b.target;
  return true;
}

/** The state of a path with its bytes read, within what is left of `budget` (bytes). */
export async function keptState(path: string, budget: { left: number }): Promise<FileState> {
  const state = await stateOf(path);
  if (state.kind !== 'file' || state.size > budget.left) return state;
  try {
    const bytes = await readFile(path);
    budget.left -= bytes.length;
    return { ...state, bytes };
  } catch {
    return { kind: 'absent' };
  }
}

/** Puts a path back as `to` says: a file's bytes and mode, a link, or nothing at all. */
export async function putState(
  path: string,
  to: { kind: 'file'; bytes: Buffer; mode: number } | { kind: 'link'; target: string } | { kind: 'absent' },
): Promise<void> {
  const now = await stateOf(path);
  // a file cannot be written over a folder or a link that replaced it
  if (now.kind === 'dir' || now.kind === 'link' || to.kind !== 'file')
    await rm(path, { recursive: true, force: true });
  if (to.kind === 'absent') return;
  await mkdir(dirname(path), { recursive: true });
  if (to.kind === 'link') await symlink(to.target, path);
  else await atomicWrite(path, to.bytes, to.mode);
}

/** Keeps what a run left at `path` under `keepDir` (the run folder), for the user to look at. */
export async function keepCopy(path: string, keepDir: string, rel: string): Promise<string | undefined> {
  try {
    const bytes = await readFile(path);
    const dest = join(keepDir, rel);
    await mkdir(dirname(dest), { recursive: true, mode: 0o700 });
    await atomicWrite(dest, bytes, 0o600);
    return dest;
  } catch {
    return undefined;
  }
}
