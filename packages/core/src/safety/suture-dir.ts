import { mkdir } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import { makeIgnoredDir } from './ignored-dir.js';

/** The folder suture owns inside a repository: journal, lock, process records and run folders. */
export const SUTURE_DIR = '.suture';

/** Where the journal of the run in progress keeps the original bytes of every file it touches. */
export function journalDir(root: string): string {
  return join(root, SUTURE_DIR, 'journal');
}

/** Where a gate records the process groups of its tests, for `recover` to stop after a crash. */
export function processGroupsDir(root: string): string {
  return join(root, SUTURE_DIR, 'procs');
}

/** Creates `<root>/.suture`, which git ignores through the `.gitignore` it holds; returns its path. */
export async function ensureSutureDir(root: string): Promise<string> {
  const dir = join(root, SUTURE_DIR);
  await makeIgnoredDir(dir, { owned: true });
  return dir;
}

/**
 * Creates a run folder. Under `.suture/` the folder's own `.gitignore` hides it; a configured
 * output folder elsewhere in the repository gets one in each run folder, so the run list that
 * `suture report` reads holds run ids only.
 */
export async function makeRunDir(root: string, runDir: string): Promise<void> {
  const inside = relative(join(root, SUTURE_DIR), runDir);
  if (inside.startsWith('..') || isAbsolute(inside)) {
    await makeIgnoredDir(runDir, { owned: true });
    return;
  }
  await ensureSutureDir(root);
  await mkdir(runDir, { recursive: true });
}
