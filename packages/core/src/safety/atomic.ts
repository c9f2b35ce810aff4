import { createHash, randomBytes } from 'node:crypto';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { phase } from './phase.js';

export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // some filesystems refuse to fsync a directory; the rename is still atomic
  }
}

/**
 * Writes a file so that a crash at any moment leaves either the old or the new bytes: temp file
 * in the same folder, fsync, chmod, rename over the target, fsync the folder.
 */
export async function atomicWrite(path: string, data: Buffer | string, mode?: number): Promise<void> {
  const tmp = join(
    dirname(path),
    `.${basename(path)}.suture-tmp-${process.pid}-${randomBytes(4).toString('hex')}`,
  );
  try {
    const handle = await open(tmp, 'w', mode ?? 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (mode !== undefined) await chmod(tmp, mode);
    phase('atomic:renaming');
    await rename(tmp, path);
    phase('atomic:renamed');
  } catch (error) {
    await rm(tmp, { force: true }).catch(() => {});
    throw asTarget(error, tmp, path);
  }
  await fsyncDir(dirname(path));
}

/** An error of the temp file told as the target's: the user knows the file being written, not ours. */
function asTarget(error: unknown, tmp: string, path: string): unknown {
  if (!(error instanceof Error)) return error;
  const e = error as NodeJS.ErrnoException & { dest?: string };
  // an error of the open file (a full disk on write) carries no path at all
  if (e.path === tmp || (e.path === undefined && typeof e.code === 'string')) e.path = path;
  if (e.dest === tmp) e.dest = path;
  e.message = e.message.split(tmp).join(path);
  return error;
}
