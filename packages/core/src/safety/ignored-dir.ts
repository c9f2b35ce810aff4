import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a folder suture creates holds so that `git status` never lists it (pytest does the same for `.pytest_cache`). */
export const SELF_IGNORE = '# Created by suture: git ignores this folder and everything in it.\n*\n';

export interface IgnoredDirOptions {
  /**
   * The folder is suture's by name (`.suture`, `build-suture`): it gets its `.gitignore` even when
   * it exists already, so a folder made by an earlier version stops showing up too.
   */
  owned?: boolean;
}

/**
 * Creates `dir` (and its missing parents) holding a `.gitignore` of `*`, which hides the folder,
 * the file itself included, from `git status`; parents that hold nothing else stay hidden as
 * well, since git lists no folder without a file it tracks or shows. A folder that existed
 * already is the user's and is left alone unless it is `owned`; a `.gitignore` already there
 * stays as it is. Returns whether this call created the folder.
 */
export async function makeIgnoredDir(dir: string, options: IgnoredDirOptions = {}): Promise<boolean> {
  const created = (await mkdir(dir, { recursive: true })) !== undefined;
  if (created || options.owned) {
    try {
      await writeFile(join(dir, '.gitignore'), SELF_IGNORE, { flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return created;
}
