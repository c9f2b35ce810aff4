import { join } from 'node:path';

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
