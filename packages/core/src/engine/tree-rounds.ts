import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { GateMode } from '../api/plugin.js';
import { sha256 } from '../safety/atomic.js';
import type { Journal } from '../safety/journal.js';
import { toPosix } from '../safety/paths.js';
import { gitDirTarget } from '../safety/tree-guard/git-dir.js';
import { TreeWatch } from '../safety/tree-guard/watch.js';
import { ownedDirs } from '../safety/workspace/owned-dirs.js';

/**
 * The watch over the runs of a project that happen in the user's tree (the initial run, its
 * flaky re-runs): the user's own code, run as their runner would. Check mode writes nothing, so
 * a tracked file its build or configure step changed (a CMake `file(REMOVE)`, a `configure_file`
 * into the sources) is put back and named; fix mode names it and leaves it. `.git`'s hooks,
 * config and info are put back in every mode: no test has a reason to write them.
 */
export async function treeRoundsWatch(input: {
  repoRoot: string;
  projectRoot: string;
  runDir: string;
  projectName: string;
  mode: GateMode;
  journal: Journal;
}): Promise<TreeWatch> {
  const dotGit = await gitDirTarget(input.repoRoot);
  return new TreeWatch(
    [
      {
        root: input.projectRoot,
        label: toPosix(relative(input.repoRoot, input.projectRoot)),
        watch: 'tracked',
        skipPaths: () => ownedDirs(input.projectRoot),
        restore: input.mode !== 'fix',
      },
      ...(dotGit ? [{ ...dotGit, restore: true }] : []),
    ],
    {
      restore: true,
      keepDir: join(input.runDir, 'undone', input.projectName),
      expected: async (file) => {
        const entry = input.journal.entries.find((e) => e.file === file);
        if (!entry) return false;
        const bytes = await readFile(join(input.repoRoot, file)).catch(() => undefined);
        return bytes !== undefined && entry.written.includes(sha256(bytes));
      },
    },
  );
}
