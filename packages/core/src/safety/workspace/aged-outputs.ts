import { lstat, readdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';

/** A time long past: what a build output made from a patch is set back to. */
const LONG_AGO = new Date(1000);

/**
 * Sets back the files of `dir` (a build folder bound into a view) modified since `since`. A build
 * tool goes by mtimes: outputs compiled from a patch in the view are newer than the user's own
 * source, so the next build of the same folder (in the next view, in place, or the user's) would
 * take them as up to date. Set back, every output the view made is rebuilt there once. Returns
 * how many files were set back.
 */
export async function ageOutputs(dir: string, since: number): Promise<number> {
  let n = 0;
  // A folder's entries are looked at together, not one lstat after another: a build folder holds
  // thousands of files.
  const walk = async (d: string): Promise<void> => {
    const entries = await readdir(d, { withFileTypes: true }).catch(() => []);
    await Promise.all(
      entries.map(async (e) => {
        const path = join(d, e.name);
        if (e.isDirectory()) return walk(path);
        if (!e.isFile()) return;
        const st = await lstat(path).catch(() => undefined);
        if (st && st.mtimeMs >= since) {
          await utimes(path, st.atime, LONG_AGO).catch(() => undefined);
          n++;
        }
      }),
    );
  };
  await walk(dir);
  return n;
}
