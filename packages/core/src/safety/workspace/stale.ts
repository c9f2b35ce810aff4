import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../process/process-groups.js';
import { removeTree, stateBase } from './state-dir.js';

/** `view-<pid>-<id>` or `probe-<pid>-<id>`: a workspace's throwaway folder and the process that made it. */
const THROWAWAY = /^(?:view|probe)-(\d+)-[0-9a-f]+$/;

/**
 * Removes the throwaway layers of workspaces whose process is gone (a killed run): what the
 * tests wrote in the view, secrets as printed, would otherwise stay in the state folder.
 * Returns the folders removed.
 */
export async function sweepStaleViews(base: string = stateBase()): Promise<string[]> {
  const removed: string[] = [];
  const parents = [
    base,
    ...(await readdir(base).catch(() => [] as string[]))
      .filter((n) => n.startsWith('ws-'))
      .map((n) => join(base, n)),
  ];
  for (const parent of parents) {
    for (const name of await readdir(parent).catch(() => [] as string[])) {
      const pid = THROWAWAY.exec(name)?.[1];
      if (!pid || Number(pid) === process.pid || processAlive(Number(pid))) continue;
      await removeTree(join(parent, name));
      removed.push(join(parent, name));
    }
  }
  return removed;
}
