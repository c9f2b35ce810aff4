import { mkdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { atomicWrite, sha256 } from '../../safety/atomic.js';
import type { AuditLog } from './audit.js';

interface Saved {
  /** The bytes before the run; undefined when the file did not exist. */
  before: Buffer | undefined;
  /** The hash of the last bytes the auto-run wrote, to tell a user's edit from its own. */
  written?: string;
}

export interface RestoreResult {
  restored: string[];
  conflicts: Array<{ file: string; reason: string }>;
}

const readOrUndefined = (path: string): Promise<Buffer | undefined> =>
  readFile(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

/**
 * The bytes of every file the auto-run creates or changes, taken before its first write to that
 * file and kept on disk in the run folder (`snapshot/`), so they survive a crash. Restoring puts
 * each file back as it was (removing the files that did not exist, and the folders the run made),
 * except a file the user changed since the auto-run last wrote it: that one keeps the user's
 * version and is reported as a conflict.
 */
export class Snapshot {
  private readonly saved = new Map<string, Saved>();
  private readonly madeDirs = new Set<string>();

  constructor(
    private readonly projectRoot: string,
    private readonly dir: string,
    private readonly audit: AuditLog,
  ) {}

  has(file: string): boolean {
    return this.saved.has(file);
  }

  /** Project-relative files taken so far. */
  files(): string[] {
    return [...this.saved.keys()];
  }

  /** Did the file exist before the run. */
  existed(file: string): boolean {
    return this.saved.get(file)?.before !== undefined;
  }

  /** Someone else (git) put the file back as it was: it now holds its bytes before the run. */
  markRestored(file: string): void {
    const saved = this.saved.get(file);
    if (saved) saved.written = undefined;
  }

  async take(file: string): Promise<void> {
    if (this.saved.has(file)) return;
    const before = await readOrUndefined(join(this.projectRoot, file));
    this.saved.set(file, { before });
    await mkdir(this.dir, { recursive: true });
    await writeFile(
      join(this.dir, 'index.json'),
      JSON.stringify(
        [...this.saved.entries()].map(([f, s]) => ({ file: f, existed: s.before !== undefined })),
      ),
    );
    if (before) {
      // a suffix no test runner collects: the copy of a test file is no test of the project
      const copy = join(this.dir, 'files', `${file}.suture-orig`);
      await mkdir(dirname(copy), { recursive: true });
      await writeFile(copy, before);
    }
  }

  /**
   * Records a file someone else (the user's generator command) has just created: before the run
   * it did not exist. Its bytes now are what that command wrote.
   */
  async recordCreated(file: string): Promise<void> {
    if (this.saved.has(file)) return;
    const now = await readOrUndefined(join(this.projectRoot, file));
    this.saved.set(file, { before: undefined, ...(now ? { written: sha256(now) } : {}) });
    await this.audit.fileEvent(
      'write',
      file,
      'written by the generator command',
      now ? sha256(now) : undefined,
    );
  }

  /** Records that someone else changed a taken file: its bytes now are theirs, not the user's. */
  async recordChanged(file: string): Promise<void> {
    const saved = this.saved.get(file);
    const now = await readOrUndefined(join(this.projectRoot, file));
    if (!saved || !now) return;
    saved.written = sha256(now);
    await this.audit.fileEvent('write', file, 'changed by the generator command', saved.written);
  }

  /** Takes the file, then writes it atomically and records the write. */
  async write(file: string, content: string, purpose: string): Promise<void> {
    await this.take(file);
    const path = join(this.projectRoot, file);
    await this.mkdirs(dirname(path));
    await atomicWrite(path, content);
    const hash = sha256(content);
    this.saved.get(file)!.written = hash;
    await this.audit.fileEvent('write', file, purpose, hash);
  }

  /** Takes the file, then deletes it and records the deletion. */
  async delete(file: string, purpose: string): Promise<void> {
    await this.take(file);
    await rm(join(this.projectRoot, file), { force: true });
    this.saved.get(file)!.written = 'deleted';
    await this.audit.fileEvent('delete', file, purpose);
  }

  /** Puts the files (all taken files by default) back as they were before the run. */
  async restore(files: readonly string[] = this.files(), purpose = 'rollback'): Promise<RestoreResult> {
    const result: RestoreResult = { restored: [], conflicts: [] };
    for (const file of files) {
      const saved = this.saved.get(file);
      if (!saved) continue;
      const path = join(this.projectRoot, file);
      const now = await readOrUndefined(path);
      const current = now === undefined ? 'deleted' : sha256(now);
      const untouched =
        saved.written === undefined ? current === hashOf(saved.before) : current === saved.written;
      if (!untouched) {
        result.conflicts.push({
          file,
          reason: 'changed by someone else during the run; their version is kept',
        });
        continue;
      }
      if (saved.before === undefined) await rm(path, { force: true });
      else {
        await this.mkdirs(dirname(path));
        await atomicWrite(path, saved.before);
      }
      saved.written = undefined;
      result.restored.push(file);
      await this.audit.fileEvent('restore', file, purpose, saved.before ? sha256(saved.before) : undefined);
    }
    await this.removeEmptyDirs();
    return result;
  }

  private async mkdirs(dir: string): Promise<void> {
    const made = await mkdir(dir, { recursive: true });
    // mkdir answers the first folder it made: that one and those below it are the run's own
    for (let d = dir; made && d.length >= made.length; d = dirname(d)) this.madeDirs.add(d);
  }

  private async removeEmptyDirs(): Promise<void> {
    const deepestFirst = [...this.madeDirs].sort((a, b) => b.length - a.length);
    for (const dir of deepestFirst) {
      try {
        // Python's byte code of the run's own files is no user's file
        await rm(join(dir, '__pycache__'), { recursive: true, force: true });
        await rmdir(dir);
        this.madeDirs.delete(dir);
      } catch {
        // not empty (a kept file, a build output, the user's own file): it stays
      }
    }
  }
}

const hashOf = (bytes: Buffer | undefined): string => (bytes === undefined ? 'deleted' : sha256(bytes));
