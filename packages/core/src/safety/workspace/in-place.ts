import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { resolveRealPath, toPosix } from '../paths.js';
import { startHolder, type Holder, type SetupOp } from '../sandbox/holder.js';
import { gitDirTarget } from '../tree-guard/git-dir.js';
import { ViewChanges, toBuffer } from './changes.js';
import {
  inForce,
  inside,
  privateTmp,
  sandboxEnvOptions,
  sandboxOps,
  writableFolders,
  type ModeContext,
} from './mode-context.js';
import { sandboxRuns } from './sandbox-runs.js';
import type { Workspace } from './types.js';

async function readOptional(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * The user's tree itself, written through the journal (the mode of platforms without
 * namespaces that ask for it, and of engines that call the gate on a copy of their own). The
 * runs are still sandboxed where namespaces are allowed: the project is their writable folder.
 */
export async function openInPlace(root: string, ctx: ModeContext): Promise<Workspace> {
  let holder: Holder | undefined;
  let tmp: string | undefined;
  if (ctx.sandboxOn) {
    tmp = await privateTmp(ctx);
    const writable = await writableFolders(ctx);
    const sandbox = sandboxOps(ctx);
    // the repository's own .git, when the project holds it, stays read-only to the runs
    const gitDir = (await gitDirTarget(ctx.options.repoRoot ?? root))?.root;
    const ops: SetupOp[] = [
      ...sandbox.before,
      ...sandbox.readOnly,
      { op: 'bind', src: root, dst: root },
      ...(gitDir && inside(root, gitDir) ? [{ op: 'bind-ro', src: gitDir, dst: gitDir } as const] : []),
      { op: 'bind', src: tmp, dst: tmp },
      ...writable.filter((w) => !inside(root, w)).map((w): SetupOp => ({ op: 'bind', src: w, dst: w })),
      ...sandbox.after,
    ];
    holder = await startHolder(ctx.support.tools!, ops, { network: !!ctx.support.tools?.ip });
  }
  const runs = sandboxRuns({
    support: ctx.support,
    ...(holder ? { holder } : {}),
    envAllowlist: ctx.sandboxOn || ctx.envOnly,
    envOptions: sandboxEnvOptions(ctx),
    ...(tmp ? { privateTmp: tmp } : {}),
  });
  const changes = new ViewChanges();
  const read = (file: string): Promise<Buffer | undefined> => readOptional(join(root, file));
  const repoRoot = ctx.options.repoRoot ?? root;
  let disposed = false;
  return {
    mode: 'in-place',
    isolation: inForce(
      'in-place',
      ctx,
      holder
        ? {
            network: holder.facts.network && holder.ownNetwork,
            readOnly: holder.facts.readOnly && holder.facts.readOnlyFailures.length === 0,
          }
        : undefined,
    ),
    root,
    readRoot: root,
    pin: async () => undefined,
    run: (fn) => runs.run(fn),
    read,
    resolve: (file) => resolveRealPath(root, file),
    async apply(edits) {
      const journal = ctx.options.journal;
      if (!journal) throw new Error('an in-place workspace writes through a journal: pass options.journal');
      for (const edit of edits) {
        const bytes = toBuffer(edit.content);
        if (bytes === undefined) throw new Error(`${edit.file}: an in-place workspace does not delete files`);
        await changes.record(edit.file, bytes, () => read(edit.file));
        await journal.write(toPosix(relative(repoRoot, join(root, edit.file))), bytes);
      }
    },
    diff: () => changes.diff(),
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.all([runs.close(), holder?.close()]);
    },
  };
}
