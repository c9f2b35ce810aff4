import { acquireLock, LockError } from '../../safety/lock.js';
import { hasJournal } from '../../safety/journal.js';
import { journalDir } from '../../safety/suture-dir.js';
import { RepositoryBusyError } from './errors.js';

/** Calls of this process waiting for or holding each repository, in arrival order. */
const tails = new Map<string, Promise<unknown>>();

export interface QueueOptions {
  /** Told when the call has to wait for an earlier call of this process on the same repository. */
  onQueued?: (message: string) => void;
  /** Aborting while queued gives up the place without running. */
  signal?: AbortSignal;
  /** false: queue only; `fn` takes the repository lock itself (through runGate). */
  lock?: boolean;
}

/** A lock held by another process is the repository being busy, said as such. */
export async function busyOnLock<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof LockError)
      throw new RepositoryBusyError(`the repository is busy: ${error.message}; call again when it is done`);
    throw error;
  }
}

/**
 * Runs `fn` alone on the repository: calls of one process (an MCP server) queue in arrival order;
 * a repository held by another process (a `suture run`, another agent's server) is refused with
 * the holder's pid, since waiting on a run of unknown length would leave the caller hanging.
 */
export async function withRepository<T>(
  root: string,
  id: string,
  fn: () => Promise<T>,
  options: QueueOptions = {},
): Promise<T> {
  const before = tails.get(root);
  let release!: () => void;
  const mine = new Promise<void>((r) => (release = r));
  const tail = (before ?? Promise.resolve()).catch(() => undefined).then(() => mine);
  tails.set(root, tail);
  try {
    if (before) {
      options.onQueued?.('queued behind an earlier call on this repository; it starts when that one ends');
      await before;
    }
    if (options.signal?.aborted) throw new RepositoryBusyError('the call was cancelled while it waited');
    if (await hasJournal(root))
      throw new RepositoryBusyError(
        `an interrupted suture run left a journal in ${journalDir(root)}; run \`suture recover\` first`,
      );
    if (options.lock === false) return await busyOnLock(() => fn());
    const lock = await busyOnLock(() => acquireLock(root, id));
    try {
      return await fn();
    } finally {
      await lock.release();
    }
  } finally {
    release();
    if (tails.get(root) === tail) tails.delete(root);
  }
}
