import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SUTURE_DIR } from './suture-dir.js';

/**
 * Removes the runners' scratch folders (`<run>/work/`: raw reports and captured output, secrets
 * as printed) of every run folder under `.suture/runs`. A finished run removes its own; these are
 * what a killed run left. Only called under the repository lock, so no live run is using one.
 * Returns the folders removed.
 */
export async function removeRunScratch(root: string): Promise<string[]> {
  const runs = join(root, SUTURE_DIR, 'runs');
  let names: string[];
  try {
    names = await readdir(runs);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    const work = join(runs, name, 'work');
    try {
      await readdir(work);
    } catch {
      continue;
    }
    await rm(work, { recursive: true, force: true });
    removed.push(work);
  }
  return removed;
}
