import { posix, relative } from 'node:path';
import { toPosix } from '../safety/paths.js';
import type { PlannedWrite } from './validate.js';

/**
 * Where a heal's writes go while it is validated (repository-relative paths): the journal over
 * the user's tree in place, or a workspace's private view.
 */
export interface TreeWriter {
  write(file: string, content: Buffer | string): Promise<void>;
  /**
   * Puts `previous` back (deletes the file when undefined) if the file still holds `expected`
   * (is still absent, when `expected` is undefined); otherwise returns a conflict and leaves it
   * as it is.
   */
  putBack(
    file: string,
    expected: Buffer | string | undefined,
    previous: Buffer | string | undefined,
  ): Promise<Conflict | undefined>;
  /** Records a batch before its writes (the journal flushes its manifest once for all of them). */
  prepare?(writes: ReadonlyArray<{ file: string; content: Buffer | string }>): Promise<void>;
}

/** A validated patch that was applied, to keep or to undo. */
export interface Heal {
  failureId: string;
  /** The healed failure's title, to name the heal in other failures' reasons. */
  title: string;
  /** What it wrote, one entry per file, with the content each file had just before, to undo exactly this heal. */
  writes: AppliedWrite[];
  /** Cases it renamed (old id -> the new cases): the old ids no longer run while it is in place. */
  renamed?: Readonly<Record<string, readonly string[]>>;
}

export interface AppliedWrite {
  /** Repository-relative POSIX path. */
  file: string;
  before: string | undefined;
  after: string;
}

/** A file the user changed while suture ran: the user's version was kept. */
export interface Conflict {
  file: string;
  reason: string;
}

/** A project-relative path as the journal names it (repository-relative). */
export function repoPath(repoRoot: string, projectRoot: string, file: string): string {
  return toPosix(relative(repoRoot, posix.join(toPosix(projectRoot), file)));
}

export async function applyWrites(
  journal: TreeWriter,
  repoRoot: string,
  projectRoot: string,
  writes: readonly PlannedWrite[],
): Promise<AppliedWrite[]> {
  const applied: AppliedWrite[] = [];
  for (const w of writes) {
    const file = repoPath(repoRoot, projectRoot, w.file);
    applied.push({ file, before: w.before, after: w.after });
    await journal.write(file, w.after);
  }
  return applied;
}

/** Undoes writes newest first, leaving earlier heals of the same files in place. */
export async function undoWrites(journal: TreeWriter, writes: readonly AppliedWrite[]): Promise<Conflict[]> {
  const conflicts: Conflict[] = [];
  for (const w of [...writes].reverse()) {
    const conflict = await journal.putBack(w.file, w.after, w.before);
    if (conflict) conflicts.push(conflict);
  }
  return conflicts;
}

/**
 * Writes again what `undoWrites` undid, oldest first, where the files still hold what it put
 * back (a file the heal created, and the undo deleted, is created again where it is still
 * absent).
 */
export async function redoWrites(journal: TreeWriter, writes: readonly AppliedWrite[]): Promise<Conflict[]> {
  const conflicts: Conflict[] = [];
  for (const w of writes) {
    const conflict = await journal.putBack(w.file, w.before, w.after);
    if (conflict) conflicts.push(conflict);
  }
  return conflicts;
}
