import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ProjectReport } from '../api/contracts/report.js';
import type { Journal } from '../safety/journal.js';
import { fileDiff } from '../safety/patch.js';
import { resolveRealPath } from '../safety/paths.js';
import { containFs } from './containment.js';
import type { Conflict, Heal } from './writes.js';

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** Why the user's tree no longer holds what the fixer saw in `file`, or undefined when it does. */
async function changedUnder(
  root: string,
  file: string,
  expected: string | undefined,
  landed: ReadonlyMap<string, string>,
): Promise<string | undefined> {
  const where = await resolveRealPath(root, file);
  if (!where.ok || where.path !== file)
    return `no longer a plain file of the repository (${where.ok ? `it is ${where.path}` : where.reason})`;
  const now = landed.has(file) ? Buffer.from(landed.get(file)!) : await readOptional(join(root, file));
  if (expected === undefined)
    return now === undefined ? undefined : 'created by someone else while suture ran: yours was kept';
  if (now === undefined) return 'deleted by someone else while suture ran: left deleted';
  return now.equals(Buffer.from(expected))
    ? undefined
    : 'changed by someone else while suture ran: your version was kept';
}

export interface Landing {
  /** Heals written to the user's tree, in order. */
  landed: Heal[];
  /** Files whose heal was not written because the user's file changed under it. */
  conflicts: Conflict[];
}

/**
 * Writes validated heals from a workspace to the user's tree at the end of a `--fix` run,
 * through the journal, in the order they were made. A heal is written only when every file it
 * changes still holds the bytes its fixer saw (or is still absent, for a new file); otherwise
 * none of it is, each changed file is a conflict, and the user's version stays. A later heal
 * built on a skipped one is skipped with it, since its files no longer match either.
 */
export async function landHeals(
  journal: Journal,
  root: string,
  heals: readonly Heal[],
  signal?: AbortSignal,
): Promise<Landing> {
  const landed: Heal[] = [];
  const conflicts: Conflict[] = [];
  const written = new Map<string, string>();
  for (const heal of heals) {
    if (signal?.aborted) break;
    const reasons: Conflict[] = [];
    for (const w of heal.writes) {
      // Stopped: the gate restores whatever landed, so a big heal need not be read to its end.
      if (signal?.aborted) return { landed, conflicts };
      const why = await changedUnder(root, w.file, w.before, written);
      if (why) reasons.push({ file: w.file, reason: `${why}; the heal of "${heal.title}" was not written` });
    }
    if (reasons.length > 0) {
      conflicts.push(...reasons);
      continue;
    }
    const batch = heal.writes.map((w) => ({ file: w.file, content: w.after }));
    const done = await containFs(root, async () => {
      await journal.prepare(batch);
      for (const w of batch) {
        if (signal?.aborted) return false;
        await journal.write(w.file, w.content);
      }
      return true;
    });
    // Stopped part way: the gate restores the whole journal, this heal's files with it.
    if (done.ok && !done.value) return { landed, conflicts };
    if (!done.ok) {
      // What part of it was written goes back: a heal lands whole or not at all.
      await journal.restore(batch.map((w) => w.file)).catch(() => undefined);
      conflicts.push(
        ...heal.writes.map((w) => ({ file: w.file, reason: `could not be written: ${done.reason}` })),
      );
      continue;
    }
    for (const w of heal.writes) written.set(w.file, w.after);
    landed.push(heal);
  }
  return { landed, conflicts };
}

/** The heals as one patch: each file from the bytes the first heal saw to the last heal's. */
export function patchOfHeals(heals: readonly Heal[]): string {
  const files = new Map<string, { before: string | undefined; after: string }>();
  for (const h of heals)
    for (const w of h.writes) {
      const seen = files.get(w.file);
      files.set(w.file, { before: seen ? seen.before : w.before, after: w.after });
    }
  return [...files.keys()]
    .sort()
    .map((f) => fileDiff(f, files.get(f)!.before, files.get(f)!.after))
    .join('');
}

/**
 * The projects' reports as the user's tree ends up: a healed failure is `applied` only when the
 * tree holds its heal, and a failure that passed after other heals only when the tree holds every
 * heal of its project. A heal stays out when a file it changes was changed by the user meanwhile
 * (a landing conflict), or when the run was stopped before or while the heals landed.
 */
export function withLanded(
  projects: readonly ProjectReport[],
  projectOf: ReadonlyMap<Heal, string>,
  landed: ReadonlySet<Heal>,
): ProjectReport[] {
  return projects.map((project) => {
    const own = [...projectOf].filter(([, name]) => name === project.name).map(([heal]) => heal);
    if (own.every((heal) => landed.has(heal))) return project;
    const byFailure = new Map(own.map((heal) => [heal.failureId, heal]));
    return {
      ...project,
      failures: project.failures.map((f) => {
        if (f.outcome !== 'healed' || f.applied !== true) return f;
        const heal = byFailure.get(f.failure.id);
        return (heal ? landed.has(heal) : false) ? f : { ...f, applied: false };
      }),
    };
  });
}
