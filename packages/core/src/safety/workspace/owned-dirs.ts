import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SELF_IGNORE } from '../ignored-dir.js';
import { SUTURE_DIR } from '../suture-dir.js';

const MARK = SELF_IGNORE.split('\n')[0]!;

/**
 * The folders of a project root that suture made for itself (a runner's build folder such as
 * `build-suture`): they hold suture's own `.gitignore`. A workspace keeps them real, writable and
 * kept across runs, so builds stay incremental. `.suture` is not one of them: it holds the journal.
 */
export async function ownedDirs(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch(() => []);
  // read together: a workspace looks before each command it starts
  const marked = await Promise.all(
    entries
      .filter((e) => e.isDirectory() && e.name !== SUTURE_DIR)
      .map(async (e) => {
        const ignore = await readFile(join(root, e.name, '.gitignore'), 'utf8').catch(() => '');
        return ignore.startsWith(MARK) ? [e.name] : [];
      }),
  );
  return marked.flat().sort();
}
