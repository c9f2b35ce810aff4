import { readFile, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { mkdir } from 'node:fs/promises';
import { atomicWrite } from '../atomic.js';
import { resolveRealPath } from '../paths.js';
import { startHolder, type Holder, type SetupOp } from '../sandbox/holder.js';
import { ViewChanges, toBuffer } from './changes.js';
import { forgetCopied, syncCopy } from './copy-sync.js';
import {
  inForce,
  privateTmp,
  sandboxOps,
  writableFolders,
  type ModeContext,
  sandboxEnvOptions,
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
 * A private copy of the project, kept in the project's state folder and synced at each open
 * (only changed files are copied), so its build folders stay warm. Runs see the copy's path;
 * the engine maps it back to the project's in what they report. Where namespaces are allowed the
 * runs are sandboxed around the copy as around an overlay.
 */
export async function openCopy(root: string, ctx: ModeContext): Promise<Workspace> {
  const copy = join(ctx.stateDir, 'copy');
  await syncCopy(root, copy, ctx.stateDir);
  const tmp = await privateTmp(ctx);
  const writable = await writableFolders(ctx);
  let holder: Holder | undefined;
  if (ctx.sandboxOn) {
    const sandbox = sandboxOps(ctx);
    const ops: SetupOp[] = [
      ...sandbox.before,
      ...sandbox.readOnly,
      { op: 'bind', src: copy, dst: copy },
      { op: 'bind', src: tmp, dst: tmp },
      ...writable.map((w): SetupOp => ({ op: 'bind', src: w, dst: w })),
      ...sandbox.after,
    ];
    holder = await startHolder(ctx.support.tools!, ops, { network: !!ctx.support.tools?.ip });
  }
  const runs = sandboxRuns({
    support: ctx.support,
    ...(holder ? { holder } : {}),
    envAllowlist: ctx.sandboxOn || ctx.envOnly,
    envOptions: sandboxEnvOptions(ctx),
    ...(holder ? { privateTmp: tmp } : {}),
  });
  const changes = new ViewChanges();
  const read = (file: string): Promise<Buffer | undefined> => readOptional(join(copy, file));
  let disposed = false;
  return {
    mode: 'copy',
    isolation: inForce(
      'copy',
      ctx,
      holder
        ? {
            network: holder.facts.network && holder.ownNetwork,
            readOnly: holder.facts.readOnly && holder.facts.readOnlyFailures.length === 0,
          }
        : undefined,
    ),
    root: copy,
    readRoot: copy,
    // The copy is a snapshot of the tree from the open on.
    pin: async () => undefined,
    run: (fn) => runs.run(fn),
    read,
    resolve: (file) => resolveRealPath(copy, file),
    async apply(edits) {
      for (const edit of edits) {
        const where = await resolveRealPath(copy, edit.file);
        if (!where.ok || where.path !== edit.file)
          throw new Error(
            `${edit.file} cannot be written in the copy: ${where.ok ? `it is ${where.path}` : where.reason}`,
          );
        const bytes = toBuffer(edit.content);
        await changes.record(edit.file, bytes, () => read(edit.file));
        const abs = join(copy, edit.file);
        if (bytes === undefined) await rm(abs, { force: true });
        else {
          await mkdir(dirname(abs), { recursive: true });
          await atomicWrite(abs, bytes);
        }
      }
    },
    diff: () => changes.diff(),
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.all([runs.close(), holder?.close()]);
      await forgetCopied(ctx.stateDir, changes.written());
    },
  };
}
