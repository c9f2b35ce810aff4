import { readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../process/process-groups.js';
import { removeTree, ROOT_FILE, stateBase } from './state-dir.js';

/** `view-<pid>-<id>` or `probe-<pid>-<id>`: a workspace's throwaway folder and the process that made it. */
const THROWAWAY = /^(?:view|probe)-(\d+)-[0-9a-f]+$/;

/** Whether the project a state folder belongs to is gone (its root removed, as a temp repository is). */
async function orphaned(dir: string): Promise<boolean> {
  const root = await readFile(join(dir, ROOT_FILE), 'utf8').catch(() => undefined);
  // An empty name is a file being written, not a project that is gone.
  return !!root && !(await stat(root).catch(() => undefined));
}

/**
 * Removes the throwaway layers of workspaces whose process is gone (a killed run): what the
 * tests wrote in the view, secrets as printed, would otherwise stay in the state folder. The
 * state of a project whose folder no longer exists goes whole, its copy and temp folder with it.
 * Returns the folders removed.
 */
export async function sweepStaleViews(base: string = stateBase()): Promise<string[]> {
  const removed: string[] = [];
  const parents = [base];
  // Each folder is looked at on its own, all at once: a machine that ran many projects has
  // hundreds of them, and this runs before every isolated gate.
  const names = await readdir(base).catch(() => [] as string[]);
  await Promise.all(
    names
      .filter((name) => name.startsWith('ws-'))
      .map(async (name) => {
        const dir = join(base, name);
        if (await orphaned(dir)) {
          await removeTree(dir);
          removed.push(dir);
        } else parents.push(dir);
      }),
  );
  await Promise.all(
    parents.map(async (parent) => {
      for (const name of await readdir(parent).catch(() => [] as string[])) {
        const pid = THROWAWAY.exec(name)?.[1];
        if (!pid || Number(pid) === process.pid || processAlive(Number(pid))) continue;
        await removeTree(join(parent, name));
        removed.push(join(parent, name));
      }
    }),
  );
  return removed;
}

/** How often a run sweeps: `suture recover` always does. */
export const SWEEP_EVERY_MS = 10 * 60_000;
const STAMP = '.swept';

/**
 * `sweepStaleViews` when the last run's sweep is over `SWEEP_EVERY_MS` old (a stamp file's mtime
 * in `base`), else nothing: a machine that gated hundreds of projects has as many state folders,
 * and looking at each on every run cost a short gate a tenth of a second.
 */
export async function sweepStaleViewsIfDue(base: string = stateBase(), now = Date.now()): Promise<string[]> {
  const stamp = join(base, STAMP);
  const last = await stat(stamp).then(
    (s) => s.mtimeMs,
    () => undefined,
  );
  if (last !== undefined && now - last < SWEEP_EVERY_MS && last <= now) return [];
  const at = new Date(now);
  await utimes(stamp, at, at).catch(() => writeFile(stamp, '').catch(() => undefined));
  return sweepStaleViews(base);
}
