import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { sha256 } from '../atomic.js';
import { toPosix } from '../paths.js';
import { gitDirTarget } from '../tree-guard/git-dir.js';
import type { GuardTarget } from '../tree-guard/tree-guard.js';
import { TreeWatch } from '../tree-guard/watch.js';
import { ownedDirs } from './owned-dirs.js';
import type { Workspace, WorkspaceOptions } from './types.js';

/**
 * Makes an opened workspace's runs leave the user's tree as they found it. `.git`'s hooks,
 * config and info are put back after every run in every mode (an overlay or a copy of the
 * project does not cover the repository's `.git`, and a sandbox may be off). Where the runs can
 * write the project itself (in place, or a view without the read-only sandbox, whose code can
 * still reach the real tree by its path), the whole project is snapshotted before each run and
 * what the run changed there, other than the journal's writes, is put back and reported.
 */
export async function guardRuns(root: string, ws: Workspace, options: WorkspaceOptions): Promise<Workspace> {
  const repoRoot = options.repoRoot ?? root;
  const targets: GuardTarget[] = [];
  if (ws.mode === 'in-place' || !ws.isolation.readOnly)
    targets.push({
      root,
      label: toPosix(relative(repoRoot, root)),
      watch: 'tree',
      skipPaths: () => ownedDirs(root),
    });
  const dotGit = await gitDirTarget(repoRoot);
  if (dotGit) targets.push(dotGit);
  const journal = options.journal;
  const watch = new TreeWatch(targets, {
    restore: true,
    ...(options.undoneDir ? { keepDir: options.undoneDir } : {}),
    // a project nested in another one is written by its own journal while the other's tests run
    expected: async (file) => {
      const entry = journal?.entries?.find((e) => e.file === file);
      if (!entry) return false;
      const bytes = await readFile(join(repoRoot, file)).catch(() => undefined);
      return bytes !== undefined && entry.written.includes(sha256(bytes));
    },
  });
  const run = ws.run.bind(ws);
  ws.run = (fn, opts) => watch.around(() => run(fn), opts?.keep);
  ws.takeUndone = () => watch.take();
  return ws;
}
