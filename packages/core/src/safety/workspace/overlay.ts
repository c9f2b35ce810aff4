import { mkdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { resolveRealPath } from '../paths.js';
import { spawnHolder, type PendingHolder, type SetupOp } from '../sandbox/holder.js';
import type { IsolationSupport } from '../sandbox/support.js';
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
import { ownedDirs } from './owned-dirs.js';
import { sandboxRuns } from './sandbox-runs.js';
import { freshDir, removeTree } from './state-dir.js';
import { ageOutputs } from './aged-outputs.js';
import type { Workspace } from './types.js';
import { agentFs } from './view-fs.js';

/**
 * Starts the holder of an overlay view (its own network where the sandbox applies), before the
 * view is planned: Node's start, most of the holder's cost, overlaps the planning.
 */
export function spawnOverlayHolder(support: IsolationSupport, sandboxOn: boolean): PendingHolder {
  const tools = support.tools!;
  return spawnHolder(tools, { network: sandboxOn && !!tools.ip });
}

/**
 * The copy-on-write view: an overlay whose lower layer is the project itself, mounted at the
 * project's own path in a private mount namespace (absolute paths in build folders stay right).
 * Runs join the namespace; writes (the patches, the tests' own files) land in a throwaway upper
 * layer. suture's build folders and the run's scratch folder are bound in real and writable, so
 * builds stay warm and suture reads the reports its runners wrote.
 */
export async function openOverlay(
  root: string,
  ctx: ModeContext,
  pending: PendingHolder,
): Promise<Workspace> {
  // A second of slack: a file's mtime may be rounded below the clock read here.
  const openedAt = Date.now() - 1000;
  const layers = await freshDir(ctx.stateDir, 'view');
  const lower = join(layers, 'lower');
  // The writable layers sit apart from the stash: binding a folder over itself drops the mounts below it.
  const rw = join(layers, 'rw');
  for (const d of [lower, rw, join(rw, 'upper'), join(rw, 'work')]) await mkdir(d);
  const tmp = await privateTmp(ctx);
  const writable = await writableFolders(ctx);
  const owned = new Set(await ownedDirs(root));
  // The real path of a folder the overlay covers is reached through the stash of the real root.
  const real = (path: string): string => (inside(root, path) ? join(lower, relative(root, path)) : path);
  const sandbox = sandboxOps(ctx);
  const ops: SetupOp[] = [
    ...sandbox.before,
    { op: 'stash', src: root, dst: lower },
    ...sandbox.readOnly,
    { op: 'bind', src: rw, dst: rw },
    { op: 'bind', src: tmp, dst: tmp },
    { op: 'overlay', lower, upper: join(rw, 'upper'), work: join(rw, 'work'), target: root },
    ...[...owned].map((d): SetupOp => ({ op: 'bind', src: join(lower, d), dst: join(root, d) })),
    ...writable.map((w): SetupOp => ({ op: 'bind', src: real(w), dst: w })),
    ...sandbox.after,
  ];
  let holder;
  try {
    holder = await pending.setup(ops);
  } catch (error) {
    await removeTree(layers);
    throw error;
  }
  const fs = agentFs(holder);
  const changes = new ViewChanges();

  /** Binds in the build folders suture made since the view was mounted; true when there were any. */
  const bindNewOwned = async (): Promise<boolean> => {
    let bound = false;
    for (const d of await ownedDirs(root)) {
      if (owned.has(d)) continue;
      owned.add(d);
      await fs.bind(join(lower, d), join(root, d));
      bound = true;
    }
    return bound;
  };
  const runs = sandboxRuns({
    support: ctx.support,
    holder,
    envAllowlist: ctx.sandboxOn,
    envOptions: sandboxEnvOptions(ctx),
    ...(ctx.sandboxOn ? { privateTmp: tmp } : {}),
    beforeSpawn: bindNewOwned,
  });
  const read = (file: string): Promise<Buffer | undefined> => fs.read(join(root, file));
  const pinned = new Set<string>();
  let disposed = false;
  return {
    mode: 'overlay',
    isolation: inForce('overlay', ctx, {
      network: holder.facts.network && holder.ownNetwork,
      readOnly: holder.facts.readOnly && holder.facts.readOnlyFailures.length === 0,
    }),
    root,
    // The agent's root, as the kernel shows it to a process of the same user.
    readRoot: `/proc/${holder.pid}/root${root}`,
    async pin(files) {
      const fresh = [...new Set(files)].filter((file) => !pinned.has(file));
      for (const file of fresh) pinned.add(file);
      // The agent serves requests as they come: a scope of many files is pinned in one round of
      // them, not one file's lstat, realpath and copy after another's.
      await Promise.all(
        fresh.map(async (file) => {
          // Only a plain file of the project: a scope may name paths through links or out of it.
          const where = await resolveRealPath(root, file, fs).catch(() => undefined);
          if (!where?.ok || where.path !== file) return;
          await fs.pin(join(root, file)).catch(() => undefined);
        }),
      );
    },
    run: (fn) => runs.run(fn),
    read,
    resolve: (file) => resolveRealPath(root, file, fs),
    async apply(edits) {
      for (const edit of edits) {
        const bytes = toBuffer(edit.content);
        pinned.add(edit.file);
        await changes.record(edit.file, bytes, () => read(edit.file));
        if (bytes === undefined) await fs.remove(join(root, edit.file));
        else await fs.write(join(root, edit.file), bytes);
      }
    },
    diff: () => changes.diff(),
    async dispose() {
      if (disposed) return;
      disposed = true;
      // What the runs built from a patch must not pass for up to date with the user's sources:
      // the real build folders are aged while the holder ends, the layers removed once it has.
      const aged =
        changes.written().length > 0 ? [...owned].map((d) => ageOutputs(join(root, d), openedAt)) : [];
      await Promise.all([runs.close(), holder.close(), ...aged]);
      await removeTree(layers);
    },
  };
}
