import { isAbsolute, relative } from 'node:path';
import type { ProjectReport } from '../api/contracts/report.js';
import { errorMessage } from '../api/errors.js';
import type { Logger } from '../api/plugin.js';
import { toPosix } from '../safety/paths.js';
import type { Emitter } from './events.js';
import type { ProjectOutcome } from './project-gate.js';
import {
  INTERRUPTED,
  validateEdits,
  type PlannedWrite,
  type ProposalCheck,
  type ValidateInput,
} from './validate.js';
import { repoPath, undoWrites, type AppliedWrite, type Conflict, type TreeWriter } from './writes.js';
import { emptyTotals } from '../report/totals.js';
import type { GateProject } from './types.js';

/**
 * Filesystem errors that a proposal or the state of one disk can cause: each is that attempt's or
 * that project's failure, never the whole gate's.
 */
const FS_CODES: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (an immutable or protected file)',
  ENOTDIR: 'a path below something that is not a folder',
  ENAMETOOLONG: 'the file name is too long',
  EISDIR: 'a folder where a file was expected',
  ELOOP: 'too many levels of symbolic links',
  EEXIST: 'something is already in the way',
  EMFILE: 'too many open files',
  // An overlay view in a user namespace cannot copy up a file or folder whose owner it does not map.
  EOVERFLOW: 'owned by a user the workspace cannot map',
};

/** Why a filesystem error happened, with its path relative to `root`; undefined when it is not one. */
export function fsFailure(error: unknown, root: string): string | undefined {
  const e = error as NodeJS.ErrnoException | undefined;
  const what = e?.code ? FS_CODES[e.code] : undefined;
  if (!e?.code || !what) return undefined;
  const rel = e.path ? toPosix(relative(root, e.path)) : undefined;
  const where = rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : e.path;
  return `${where ? `${where}: ` : ''}${e.code} (${what})`;
}

export type Contained<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Runs `fn`; a filesystem error becomes a reason, anything else still throws. */
export async function containFs<T>(root: string, fn: () => Promise<T>): Promise<Contained<T>> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    const reason = fsFailure(error, root);
    if (reason === undefined) throw error;
    return { ok: false, reason };
  }
}

/** `validateEdits`, with a filesystem error (a path below a file, a name too long) as a refusal. */
export async function validateContained(input: ValidateInput): Promise<ProposalCheck> {
  const checked = await containFs(input.projectRoot, () => validateEdits(input));
  return checked.ok
    ? checked.value
    : { ok: false, reason: `the proposal cannot be read or written: ${checked.reason}` };
}

/**
 * Applies planned writes through the journal. When one cannot be written, the ones already
 * written are undone, so a refused attempt leaves the files as it found them.
 */
export async function applyContained(
  journal: TreeWriter,
  repoRoot: string,
  projectRoot: string,
  writes: readonly PlannedWrite[],
  signal?: AbortSignal,
): Promise<{ ok: true; applied: AppliedWrite[] } | { ok: false; reason: string; conflicts: Conflict[] }> {
  const applied: AppliedWrite[] = [];
  const batch = writes.map((w) => ({ file: repoPath(repoRoot, projectRoot, w.file), content: w.after }));
  const prepared = await containFs(repoRoot, async () => journal.prepare?.(batch));
  if (!prepared.ok)
    return { ok: false, reason: `the proposal could not be journaled: ${prepared.reason}`, conflicts: [] };
  for (const w of writes) {
    // Each write of a big proposal takes a while in a view: Ctrl-C must not wait for all of them.
    // What was written is not undone here: a stopped gate restores its whole journal, and a view
    // is thrown away.
    if (signal?.aborted) return { ok: false, reason: INTERRUPTED, conflicts: [] };
    const file = repoPath(repoRoot, projectRoot, w.file);
    const written = await containFs(repoRoot, () => journal.write(file, w.after));
    if (!written.ok) {
      const conflicts = await undoWrites(journal, applied).catch(() => []);
      return { ok: false, reason: `${file} could not be written: ${written.reason}`, conflicts };
    }
    applied.push({ file, before: w.before, after: w.after });
  }
  return { ok: true, applied };
}

/** The report of a project whose gate threw: failed, with the reason, and nothing of it kept. */
export function failedProject(project: GateProject, error: unknown, startedAt: number): ProjectReport {
  const reason = fsFailure(error, project.root) ?? errorMessage(error);
  return {
    name: project.name,
    root: project.root,
    runner: project.runner.name,
    status: 'failed',
    rounds: [],
    failures: [],
    totals: emptyTotals(),
    durationMs: Date.now() - startedAt,
    error: `suture could not gate this project: ${reason}; its other work was undone`,
    pluginErrors: [],
  };
}

/**
 * Gates one project so that its throw fails that project only: the others go on, and the gate
 * waits for all of them before it restores, closes the journal and releases the lock.
 */
export async function containProject(
  project: GateProject,
  emitter: Emitter,
  logger: Logger,
  gate: () => Promise<ProjectOutcome>,
): Promise<ProjectOutcome> {
  const startedAt = Date.now();
  try {
    return await gate();
  } catch (error) {
    const report = failedProject(project, error, startedAt);
    logger.error(`${project.name}: ${report.error}`);
    await emitter.emit('onProjectEnd', { project: report });
    return { report, heals: [], conflicts: [] };
  }
}
