import { mkdir, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, relative } from 'node:path';
import type { SandboxEnvOptions } from '../sandbox/env.js';
import type { SetupOp } from '../sandbox/holder.js';
import type { IsolationSupport } from '../sandbox/support.js';
import type { SandboxHome } from './private-home.js';
import type { IsolationInForce, WorkspaceMode, WorkspaceOptions } from './types.js';

/** What every workspace mode is opened with, once the mode and the sandbox are decided. */
export interface ModeContext {
  support: IsolationSupport;
  /** The project's persistent state folder (outside the repository). */
  stateDir: string;
  /** The namespaces' sandbox (read-only outside, own network, allowlist) applies. */
  sandboxOn: boolean;
  /** The environment allowlist applies without namespaces. */
  envOnly: boolean;
  options: WorkspaceOptions;
  notes: string[];
  /** The runs' private HOME and what covers the real one (where the allowlist applies). */
  home?: SandboxHome;
  /** The private layers over the runner's caches (see `WorkspaceOptions.cacheLayers`). */
  cacheOps?: SetupOp[];
}

/** Whether `path` is `root` or inside it. */
export function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** The steps that close a holder's view around its writable folders: network, read-only, /dev/shm. */
export function sandboxOps(ctx: ModeContext): { before: SetupOp[]; readOnly: SetupOp[]; after: SetupOp[] } {
  if (!ctx.sandboxOn) return { before: [], readOnly: [], after: [] };
  const ip = ctx.support.tools?.ip;
  return {
    before: ip ? [{ op: 'loopback', ip }] : [],
    readOnly: [{ op: 'read-only' }],
    // POSIX shared memory (Python's multiprocessing locks) needs a writable /dev/shm of its own.
    after: [
      { op: 'tmpfs', target: '/dev/shm', size: '256m' },
      ...(ctx.home?.cover ?? []),
      ...(ctx.cacheOps ?? []),
    ],
  };
}

/**
 * The mounts that put a private writable layer over each of the runner's caches that exists: the
 * layer's folder bound writable, then an overlay of it on the real cache, at the cache's own path.
 * None without the overlay (the caches then stay read-only).
 */
export async function cacheLayerOps(
  ctx: Pick<ModeContext, 'sandboxOn' | 'support' | 'stateDir'>,
  caches: readonly string[],
): Promise<SetupOp[]> {
  if (!ctx.sandboxOn || !ctx.support.overlay || !ctx.stateDir || caches.length === 0) return [];
  const base = join(ctx.stateDir, 'cache-layers');
  await rm(base, { recursive: true, force: true });
  const ops: SetupOp[] = [];
  let n = 0;
  for (const cache of new Set(caches)) {
    if (
      !isAbsolute(cache) ||
      !(await stat(cache).then(
        (s) => s.isDirectory(),
        () => false,
      ))
    )
      continue;
    const layer = join(base, String(++n));
    await mkdir(join(layer, 'upper'), { recursive: true });
    await mkdir(join(layer, 'work'), { recursive: true });
    ops.push(
      { op: 'bind', src: layer, dst: layer },
      { op: 'overlay', lower: cache, upper: join(layer, 'upper'), work: join(layer, 'work'), target: cache },
    );
  }
  return ops;
}

/** What the runs' environment is made from: the config's names and the private HOME. */
export function sandboxEnvOptions(ctx: ModeContext): SandboxEnvOptions {
  return {
    extra: ctx.options.sandboxEnv ?? [],
    secretNames: ctx.options.secretNames ?? [],
    ...(ctx.home ? { home: { dir: ctx.home.dir, env: ctx.home.env } } : {}),
  };
}

/** The writable folders outside the view (the run's scratch folder), made first so they can be bound. */
export async function writableFolders(ctx: ModeContext): Promise<string[]> {
  const dirs = [...(ctx.options.writable ?? [])];
  for (const d of dirs) await mkdir(d, { recursive: true });
  return dirs;
}

/** The runs' private temp folder, kept across runs (warm caches that live in TMPDIR, such as Jest's). */
export async function privateTmp(ctx: ModeContext): Promise<string> {
  const dir = join(ctx.stateDir, 'tmp');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/** The isolation a workspace ends up with, from its mode, the context and its holder's facts. */
export function inForce(
  mode: WorkspaceMode,
  ctx: ModeContext,
  holder: { network: boolean; readOnly: boolean } | undefined,
): IsolationInForce {
  const notes = [...ctx.notes];
  if (ctx.sandboxOn && holder && !holder.network)
    notes.push(
      'the runs share the machine network: install iproute2 (ip) to give them a loopback of their own',
    );
  return {
    workspace: mode,
    sandbox: ctx.sandboxOn ? 'strict' : ctx.envOnly ? 'env-only' : 'off',
    network: ctx.sandboxOn && !!holder?.network,
    readOnly: ctx.sandboxOn && !!holder?.readOnly,
    envAllowlist: ctx.sandboxOn || ctx.envOnly,
    processes: ctx.support.namespaces ? 'pid-namespace' : 'process-group',
    notes,
  };
}
