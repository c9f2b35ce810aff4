import { mkdir, open, readdir, readFile, rm, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, posix } from 'node:path';
import { atomicWrite, sha256 } from './atomic.js';
import { stopRecordedProcessGroups } from './process/process-groups.js';
import { acquireLock } from './lock.js';
import { ensureSutureDir, journalDir, processGroupsDir } from './suture-dir.js';
import { phase } from './phase.js';
import { removeRunScratch } from './run-scratch.js';
import { sweepStaleViews } from './workspace/stale.js';

const MANIFEST = 'manifest.json';

/** Writes a new file and syncs its bytes (its folder is synced once for a whole batch). */
async function writeSynced(path: string, data: Buffer): Promise<void> {
  const handle = await open(path, 'w', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // a folder that does not exist (no backup in the batch) or refuses fsync
  }
}

export interface JournalEntry {
  /** Path relative to the repository root (POSIX). */
  file: string;
  existed: boolean;
  mode: number;
  /** Backup file name inside the journal folder (absent when the file did not exist). */
  backup?: string;
  originalHash?: string;
  /** Hashes of every content suture wrote (recorded before each write). */
  written: string[];
  /** Folders suture created for a new file (repository-relative, deepest first), removed on restore when empty. */
  createdDirs?: string[];
}

export interface JournalManifest {
  version: 1;
  runId: string;
  pid: number;
  startedAt: string;
  entries: JournalEntry[];
}

export interface RestoreOutcome {
  restored: string[];
  deleted: string[];
  /** Files changed by someone else since suture wrote them: left as they are. */
  conflicts: Array<{ file: string; reason: string }>;
}

export async function hasJournal(root: string): Promise<boolean> {
  try {
    await stat(join(journalDir(root), MANIFEST));
    return true;
  } catch {
    return false;
  }
}

export async function readManifest(root: string): Promise<JournalManifest> {
  const path = join(journalDir(root), MANIFEST);
  try {
    const manifest = JSON.parse(await readFile(path, 'utf8')) as JournalManifest;
    if (manifest.version !== 1 || !Array.isArray(manifest.entries))
      throw new Error('not a version 1 journal manifest');
    return manifest;
  } catch (error) {
    throw new Error(
      `the journal manifest ${path} is unreadable (${(error as Error).message}); the original files are in ${join(journalDir(root), 'files')}: copy them back by hand, then delete ${journalDir(root)}`,
    );
  }
}

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Ancestors of a repository-relative file that do not exist yet, deepest first. */
async function missingDirs(root: string, file: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = posix.dirname(file); dir !== '.' && dir !== '/'; dir = posix.dirname(dir)) {
    try {
      await stat(join(root, dir));
      break;
    } catch {
      missing.push(dir);
    }
  }
  return missing;
}

/** Folders made for a new file, deepest first; one that is not empty (the user's files) stays. */
async function removeCreatedDirs(root: string, entry: JournalEntry): Promise<void> {
  for (const dir of entry.createdDirs ?? []) await rmdir(join(root, dir)).catch(() => undefined);
}

/** A folder's names, read once per restore: a proposal of many files in one folder would read it per file. */
type Listings = Map<string, Promise<string[] | undefined>>;

/** Temp files of an atomic write that a crash interrupted before its rename. */
async function removeTempFiles(abs: string, listings: Listings): Promise<void> {
  const prefix = `.${basename(abs)}.suture-tmp-`;
  const dir = dirname(abs);
  let listing = listings.get(dir);
  if (!listing) {
    listing = readdir(dir).catch(() => undefined);
    listings.set(dir, listing);
  }
  for (const name of (await listing) ?? [])
    if (name.startsWith(prefix)) await rm(join(dir, name), { force: true });
}

/**
 * The write-ahead journal. Every file's original bytes and mode are saved and flushed before the
 * first write to it, and the hash of each new content is recorded before it is written, so that
 * after a crash at any point `restoreAll` can tell suture's writes from the user's.
 */
export class Journal {
  /** Serializes manifest updates: projects are gated in parallel over one journal. */
  private queue: Promise<unknown> = Promise.resolve();

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Entries by file: a proposal of thousands of files must not search the list per file. */
  private readonly byFile = new Map<string, JournalEntry>();

  /**
   * The files this process started to write (or put back) through a journal it created. Its own
   * restore looks at these only: a batch journals thousands of files before writing any, and an
   * interrupted landing must not read and check every one it never reached. A journal loaded from
   * disk (a dead run's) knows no such thing and looks at every entry.
   */
  private readonly touched: Set<string> | undefined;

  /**
   * Whether the manifest is on disk. A journal this process created writes it before its first
   * backup: a run that writes nothing (a green run, a check-mode run in a private view) leaves
   * nothing to recover and spends no fsync on it.
   */
  private onDisk: boolean;

  private constructor(
    readonly root: string,
    private manifest: JournalManifest,
    own = false,
  ) {
    this.touched = own ? new Set() : undefined;
    this.onDisk = !own;
    for (const e of manifest.entries) this.byFile.set(e.file, e);
  }

  static async create(root: string, runId: string): Promise<Journal> {
    if (await hasJournal(root)) {
      throw new Error(
        `an unrecovered journal exists in ${journalDir(root)}: run \`suture recover\` to restore the files of the interrupted run`,
      );
    }
    const journal = new Journal(
      root,
      {
        version: 1,
        runId,
        pid: process.pid,
        startedAt: new Date().toISOString(),
        entries: [],
      },
      true,
    );
    phase('journal:created');
    return journal;
  }

  /** Puts the manifest on disk, before anything it will point at. */
  private async materialize(): Promise<void> {
    if (this.onDisk) return;
    await ensureSutureDir(this.root);
    await mkdir(journalDir(this.root), { recursive: true });
    this.onDisk = true;
    await this.flush();
  }

  static async load(root: string): Promise<Journal> {
    return new Journal(root, await readManifest(root));
  }

  get entries(): readonly JournalEntry[] {
    return this.manifest.entries;
  }

  private async flush(): Promise<void> {
    await atomicWrite(join(journalDir(this.root), MANIFEST), `${JSON.stringify(this.manifest, null, 2)}\n`);
  }

  private entry(file: string): JournalEntry | undefined {
    return this.byFile.get(file);
  }

  /** Current bytes of a repository file, or undefined when it does not exist. */
  async read(file: string): Promise<Buffer | undefined> {
    return readOptional(join(this.root, file));
  }

  /** Writes `content` to `file` (repository-relative) through the journal. */
  write(file: string, content: Buffer | string): Promise<void> {
    return this.serial(() => this.writeNow(file, content));
  }

  /**
   * The entry of a file about to be written, its original bytes saved (and flushed) when it is
   * new. `durable: false` leaves the backup's folder unsynced: a batch syncs it once.
   */
  private async entryFor(file: string, durable = true): Promise<JournalEntry> {
    const known = this.entry(file);
    if (known) return known;
    await this.materialize();
    const abs = join(this.root, file);
    const original = await readOptional(abs);
    const mode = original ? (await stat(abs)).mode & 0o7777 : 0o644;
    const entry: JournalEntry = { file, existed: original !== undefined, mode, written: [] };
    if (!original) entry.createdDirs = await missingDirs(this.root, file);
    if (original) {
      phase('journal:backup');
      entry.backup = `files/${this.manifest.entries.length}`;
      entry.originalHash = sha256(original);
      await mkdir(join(journalDir(this.root), 'files'), { recursive: true });
      if (durable) await atomicWrite(join(journalDir(this.root), entry.backup), original);
      else await writeSynced(join(journalDir(this.root), entry.backup), original);
    }
    this.manifest.entries.push(entry);
    this.byFile.set(file, entry);
    return entry;
  }

  /**
   * Journals a batch of writes before any of them is made: every original saved and the whole
   * batch recorded in one manifest flush, so a proposal of thousands of files costs one manifest
   * write, not one per file. The writes that follow (`write`) then flush nothing more.
   */
  prepare(writes: ReadonlyArray<{ file: string; content: Buffer | string }>): Promise<void> {
    return this.serial(async () => {
      let changed = false;
      for (const w of writes) {
        const entry = await this.entryFor(w.file, false);
        const hash = sha256(w.content);
        if (!entry.written.includes(hash)) {
          entry.written.push(hash);
          changed = true;
        }
      }
      if (!changed) return;
      await syncDir(join(journalDir(this.root), 'files'));
      phase('journal:manifest');
      await this.flush();
    });
  }

  private async writeNow(file: string, content: Buffer | string): Promise<void> {
    this.touched?.add(file);
    const abs = join(this.root, file);
    const entry = await this.entryFor(file);
    const hash = sha256(content);
    if (!entry.written.includes(hash)) {
      entry.written.push(hash);
      phase('journal:manifest');
      await this.flush();
    }
    phase('write:begin');
    if (!entry.existed) await mkdir(dirname(abs), { recursive: true });
    await atomicWrite(abs, content, entry.mode);
    phase('write:end');
  }

  /**
   * Undoes one write: puts `previous` back (deletes the file when it did not exist) if the file
   * still holds `expected`, what suture wrote, or, when `expected` is undefined, if the file is
   * still absent (a write that created it is done again). Earlier writes to the same file
   * (another failure's heal) survive, unlike `restore`. Returns a conflict when someone else
   * changed or created it.
   */
  putBack(
    file: string,
    expected: Buffer | string | undefined,
    previous: Buffer | string | undefined,
  ): Promise<{ file: string; reason: string } | undefined> {
    return this.serial(async () => {
      phase('restore:putback');
      try {
        return await this.putBackNow(file, expected, previous);
      } finally {
        phase('restore:done');
      }
    });
  }

  private async putBackNow(
    file: string,
    expected: Buffer | string | undefined,
    previous: Buffer | string | undefined,
  ): Promise<{ file: string; reason: string } | undefined> {
    this.touched?.add(file);
    const current = await this.read(file);
    if (expected === undefined && current)
      return { file, reason: 'created by someone else while suture ran: your version was kept' };
    if (expected !== undefined && (!current || sha256(current) !== sha256(expected))) {
      return { file, reason: 'changed by someone else while suture ran: your version was kept' };
    }
    if (previous !== undefined) {
      await this.writeNow(file, previous);
      return undefined;
    }
    await unlink(join(this.root, file));
    const entry = this.entry(file);
    if (entry && !entry.existed) await removeCreatedDirs(this.root, entry);
    return undefined;
  }

  /** Restores the given files (all journaled files by default) to their original bytes. */
  restore(files?: readonly string[]): Promise<RestoreOutcome> {
    return this.serial(() => this.restoreNow(files));
  }

  private async restoreNow(files?: readonly string[]): Promise<RestoreOutcome> {
    phase('restore:begin');
    try {
      return await this.restoreEntries(files);
    } finally {
      phase('restore:done');
    }
  }

  private async restoreEntries(files?: readonly string[]): Promise<RestoreOutcome> {
    const outcome: RestoreOutcome = { restored: [], deleted: [], conflicts: [] };
    const only = files ? new Set(files) : undefined;
    // The temp files of interrupted writes are there before the restore starts; its own writes
    // leave none, so a listing taken once per folder sees them all.
    const listings: Listings = new Map();
    for (const entry of this.manifest.entries) {
      if (only && !only.has(entry.file)) continue;
      // Journaled in a batch but never written by this run: the file is as suture found it, or
      // as its user made it since.
      if (this.touched && !this.touched.has(entry.file)) continue;
      phase('restore:file');
      const abs = join(this.root, entry.file);
      await removeTempFiles(abs, listings);
      const current = await readOptional(abs);
      const currentHash = current ? sha256(current) : undefined;
      if (currentHash === entry.originalHash) {
        // Already original. A new file still absent may have had its folders made by a write that
        // was killed before its rename: they go too.
        if (!entry.existed) await removeCreatedDirs(this.root, entry);
        continue;
      }
      if (current === undefined) {
        // Suture's writes are renames over the file, so it is never missing after one: someone deleted it.
        outcome.conflicts.push({
          file: entry.file,
          reason: 'deleted by someone else while suture ran: left deleted',
        });
        continue;
      }
      if (currentHash !== undefined && !entry.written.includes(currentHash)) {
        outcome.conflicts.push({
          file: entry.file,
          reason: 'changed by someone else while suture ran: your version was kept',
        });
        continue;
      }
      if (!entry.existed) {
        if (current) await unlink(abs);
        await removeCreatedDirs(this.root, entry);
        outcome.deleted.push(entry.file);
        continue;
      }
      const original = await readOptional(join(journalDir(this.root), entry.backup ?? ''));
      if (!original) {
        outcome.conflicts.push({
          file: entry.file,
          reason: `its backup ${entry.backup} is missing from the journal: left as it is`,
        });
        continue;
      }
      await atomicWrite(abs, original, entry.mode);
      outcome.restored.push(entry.file);
    }
    return outcome;
  }

  /** Files whose current content differs from the original and was written by suture. */
  async changedFiles(): Promise<string[]> {
    const changed: string[] = [];
    for (const entry of this.manifest.entries) {
      const current = await this.read(entry.file);
      const hash = current ? sha256(current) : undefined;
      if (hash !== entry.originalHash) changed.push(entry.file);
    }
    return changed;
  }

  /** Original bytes of a journaled file (undefined if it did not exist or is not journaled). */
  async original(file: string): Promise<Buffer | undefined> {
    const entry = this.entry(file);
    if (!entry) return this.read(file);
    if (!entry.existed) return undefined;
    return readFile(join(journalDir(this.root), entry.backup!));
  }

  /** Ends the journal: the tree is in its final state. */
  async close(): Promise<void> {
    // The manifest goes first: it is the commit point. A crash while the backups are being
    // removed must not leave a manifest that points at backups already gone.
    phase('journal:closing');
    if (!this.onDisk) return phase('journal:closed');
    await rm(join(journalDir(this.root), MANIFEST), { force: true });
    phase('journal:closed');
    await rm(journalDir(this.root), { recursive: true, force: true });
  }
}

/**
 * `suture recover`: restores every journaled file of an interrupted run and removes the journal.
 * It takes the repository lock, so it refuses (LockError) while a live run owns the journal, and
 * takes over the stale lock of the run that died; it kills the test processes that run left, and
 * removes its raw test output and its workspaces' layers. A run killed before it wrote the tree
 * (heals in a workspace land only at its end) leaves no journal, but may leave all of those.
 */
export async function recover(root: string): Promise<
  RestoreOutcome & {
    runId?: string;
    found: boolean;
    stopped?: Array<{ pgid: number; command: string }>;
    /** Scratch folders and workspace layers removed. */
    removed?: string[];
  }
> {
  const none = { found: false, restored: [], deleted: [], conflicts: [] };
  if (!(await hasJournal(root)) && !(await leftBehind(root))) return none;
  const lock = await acquireLock(root, 'recover');
  try {
    // First the tests the dead run left running: one could still write to the tree.
    const stopped = await stopRecordedProcessGroups(processGroupsDir(root));
    let outcome: RestoreOutcome & { runId?: string; found: boolean } = none;
    if (await hasJournal(root)) {
      const journal = await Journal.load(root);
      outcome = { found: true, runId: journal['manifest'].runId, ...(await journal.restore()) };
      await journal.close();
    }
    // The dead run's raw test output may hold secrets in clear; its report was never written.
    const removed = [...(await removeRunScratch(root)), ...(await sweepStaleViews())];
    return { ...outcome, stopped, removed };
  } finally {
    await lock.release();
  }
}

/** Whether a dead run left processes or raw output behind (without a journal). */
async function leftBehind(root: string): Promise<boolean> {
  const procs = await readdir(processGroupsDir(root)).catch(() => [] as string[]);
  if (procs.length > 0) return true;
  const runs = await readdir(join(root, '.suture', 'runs')).catch(() => [] as string[]);
  for (const run of runs)
    if (await stat(join(root, '.suture', 'runs', run, 'work')).catch(() => undefined)) return true;
  return false;
}
