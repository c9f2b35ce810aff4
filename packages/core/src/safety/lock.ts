import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { link, open, readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from './process/process-groups.js';
import { ensureSutureDir, SUTURE_DIR } from './suture-dir.js';
import { phase } from './phase.js';

interface LockInfo {
  pid: number;
  hostname: string;
  startedAt: string;
  runId: string;
}

/** A lock file younger than this with no readable content is being written by a live run. */
const FRESH_MS = 10_000;

export class LockError extends Error {
  override name = 'LockError';
}

/** Filesystems without hard links fall back to an O_EXCL create followed by the write. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/** Writes the lock info and flushes it to disk; `wx` fails if the file exists. */
async function writeInfo(path: string, info: LockInfo, flags: 'w' | 'wx'): Promise<void> {
  const handle = await open(path, flags);
  try {
    await handle.writeFile(JSON.stringify(info));
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Lock files half-taken by runs that were killed before they could remove them. */
async function removeLeftovers(root: string): Promise<void> {
  const dir = join(root, SUTURE_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = /^lock\.(\d+)-[0-9a-f]{8}$/.exec(name)?.[1];
    if (pid && Number(pid) !== process.pid && !processAlive(Number(pid)))
      await rm(join(dir, name), { force: true });
  }
}

export interface RepoLock {
  release(): Promise<void>;
  /** Set when a stale lock of a dead process was taken over. */
  staleFrom?: LockInfo;
}

/**
 * One gate at a time per repository: `.suture/lock`, created only if absent and never empty. A
 * lock left by a dead process on this host is stale and taken over; a live one is refused with
 * its pid.
 */
export async function acquireLock(root: string, runId: string): Promise<RepoLock> {
  const path = join(root, SUTURE_DIR, 'lock');
  await ensureSutureDir(root);
  let staleFrom: LockInfo | undefined;
  for (let tries = 0; tries < 3; tries++) {
    try {
      const info: LockInfo = {
        pid: process.pid,
        hostname: hostname(),
        startedAt: new Date().toISOString(),
        runId,
      };
      // Written in full under another name, then linked into place (link fails if the lock
      // exists): the lock never exists without its holder, so a run killed while taking it
      // leaves a lock that the next run sees is stale, not an empty one it must wait out.
      const tmp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}`;
      await writeInfo(tmp, info, 'w');
      try {
        await link(tmp, path);
        phase('lock:linked');
      } catch (error) {
        if (!NO_HARD_LINKS.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
        await writeInfo(path, info, 'wx');
      } finally {
        await rm(tmp, { force: true });
      }
      phase('lock:created');
      await removeLeftovers(root);
      return {
        staleFrom,
        async release() {
          try {
            const current = JSON.parse(await readFile(path, 'utf8')) as LockInfo;
            if (current.pid === process.pid && current.runId === runId) await rm(path, { force: true });
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    let holder: LockInfo | undefined;
    try {
      holder = JSON.parse(await readFile(path, 'utf8')) as LockInfo;
    } catch {
      // Empty or unparsable: either another run created it this instant and is writing it, or it
      // is garbage from a crash. Only an old one is taken over.
      const age = await stat(path).then(
        (st) => Date.now() - st.mtimeMs,
        () => Infinity,
      );
      if (age < FRESH_MS)
        throw new LockError(`another suture run is starting and holds ${path}; wait for it to finish`);
      holder = undefined;
    }
    if (holder && holder.hostname === hostname() && processAlive(holder.pid)) {
      throw new LockError(
        `another suture run (pid ${holder.pid}, started ${holder.startedAt}) holds ${path}; wait for it to finish, or stop it`,
      );
    }
    if (holder && holder.hostname !== hostname()) {
      throw new LockError(
        `${path} is held by a run on host ${holder.hostname} (pid ${holder.pid}); delete the file if that run is gone`,
      );
    }
    staleFrom = holder;
    await rm(path, { force: true });
  }
  throw new LockError(`could not take ${path}; another run keeps creating it`);
}
