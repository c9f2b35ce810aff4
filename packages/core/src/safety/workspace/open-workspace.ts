import { ConfigError } from '../../api/errors.js';
import type { PendingHolder } from '../sandbox/holder.js';
import { isolationSupport, type IsolationSupport } from '../sandbox/support.js';
import { openCopy } from './copy.js';
import { guardRuns } from './guarded-runs.js';
import { openInPlace } from './in-place.js';
import { cacheLayerOps, inForce, type ModeContext } from './mode-context.js';
import { mountsInside } from './mounts.js';
import { sandboxHome } from './private-home.js';
import { openOverlay, spawnOverlayHolder } from './overlay.js';
import { sweepStaleViewsIfDue } from './stale.js';
import { projectStateDir, stateBase } from './state-dir.js';
import type {
  IsolationInForce,
  SandboxChoice,
  Workspace,
  WorkspaceChoice,
  WorkspaceMode,
  WorkspaceOptions,
} from './types.js';

/** What `workspace` and `sandbox` come to on this machine, before anything is opened. */
export interface IsolationPlan {
  mode: WorkspaceMode;
  /** Namespaces sandbox the runs. */
  sandboxOn: boolean;
  /** Only the environment allowlist applies (no namespaces here). */
  envOnly: boolean;
  notes: string[];
}

/**
 * Decides the workspace mode and the sandbox, or refuses (a ConfigError naming the key) when the
 * config asks for what this machine cannot give: `workspace: "overlay"` or `sandbox: "strict"`.
 */
export function planIsolation(
  workspace: WorkspaceChoice,
  sandbox: SandboxChoice,
  support: IsolationSupport,
): IsolationPlan {
  const why = support.reasons.join('; ') || 'not supported here';
  if (workspace === 'overlay' && !support.overlay)
    throw new ConfigError(
      `workspace "overlay" is not available on this machine (${why}); set "workspace" to "auto" to fall back to a private copy`,
      undefined,
      'workspace',
    );
  if (sandbox === 'strict') {
    const missing = [
      ...(support.namespaces ? [] : ['private namespaces']),
      ...(support.namespaces && !support.network ? ['a private network (install iproute2 for ip)'] : []),
      ...(support.namespaces && !support.readOnly ? ['read-only mounts outside the workspace'] : []),
    ];
    if (missing.length > 0)
      throw new ConfigError(
        `sandbox "strict" needs ${missing.join(', ')}, which this machine does not give (${why}); set "sandbox" to "auto" to run with what it allows`,
        undefined,
        'sandbox',
      );
  }
  const mode: WorkspaceMode = workspace === 'auto' ? (support.overlay ? 'overlay' : 'copy') : workspace;
  const notes: string[] = [];
  if (workspace === 'auto' && mode === 'copy') notes.push(`a private copy instead of an overlay: ${why}`);
  if (sandbox === 'auto' && !support.namespaces)
    notes.push(`only the environment allowlist sandboxes the runs: ${why}`);
  return {
    mode,
    sandboxOn: sandbox !== 'off' && support.namespaces,
    envOnly: sandbox !== 'off' && !support.namespaces,
    notes,
  };
}

/**
 * The isolation a plan gives the runs of patched code, before any workspace is opened (a run
 * that heals nothing opens none): what the report says then.
 */
export function plannedIsolation(plan: IsolationPlan, support: IsolationSupport): IsolationInForce {
  return inForce(
    plan.mode,
    {
      support,
      stateDir: '',
      sandboxOn: plan.sandboxOn,
      envOnly: plan.envOnly,
      options: {},
      notes: plan.notes,
    },
    plan.sandboxOn ? { network: support.network, readOnly: support.readOnly } : undefined,
  );
}

/**
 * The plan for a project that holds mount points (a tmpfs, a bind-mounted folder, as in a
 * container): an overlay cannot show them, so `auto` takes a private copy, saying why, and an
 * explicit `overlay` is refused with the folders named.
 */
async function planForMounts(
  root: string,
  workspace: WorkspaceChoice,
  plan: IsolationPlan,
): Promise<IsolationPlan> {
  if (plan.mode !== 'overlay') return plan;
  const mounts = await mountsInside(root);
  if (mounts.length === 0) return plan;
  const which = `${root} holds mount points (${mounts.join(', ')}) that an overlay view cannot show`;
  if (workspace === 'overlay')
    throw new ConfigError(
      `workspace "overlay" cannot be used here: ${which}; set "workspace" to "auto" or "copy"`,
      undefined,
      'workspace',
    );
  return { ...plan, mode: 'copy', notes: [...plan.notes, `a private copy instead of an overlay: ${which}`] };
}

/** The support a plan needs: none is probed for a run in place with no sandbox (today's behaviour). */
export async function supportFor(
  workspace: WorkspaceChoice,
  sandbox: SandboxChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<IsolationSupport> {
  if (workspace === 'in-place' && sandbox === 'off')
    return {
      namespaces: false,
      overlay: false,
      network: false,
      readOnly: false,
      procMount: false,
      reasons: [],
    };
  return isolationSupport(env);
}

/**
 * Opens the workspace of one project (`root`, absolute): an overlay view, a synced private copy,
 * or the tree itself, with its runs sandboxed as the options ask and the machine allows.
 */
export async function openWorkspace(root: string, options: WorkspaceOptions = {}): Promise<Workspace> {
  const workspace = options.workspace ?? 'auto';
  const sandbox = options.sandbox ?? 'auto';
  const support = await supportFor(workspace, sandbox, options.env);
  const planned = planIsolation(workspace, sandbox, support);
  // An overlay's holder starts now: its Node starts while the mounts are looked at and the
  // layers made, and is told what to mount once that is known.
  const early = planned.mode === 'overlay' ? spawnOverlayHolder(support, planned.sandboxOn) : undefined;
  let plan: IsolationPlan;
  try {
    plan = await planForMounts(root, workspace, planned);
  } catch (error) {
    await early?.abandon();
    throw error;
  }
  const holder = plan.mode === 'overlay' ? early : undefined;
  if (early && !holder) await early.abandon();
  // The layers dead runs left are swept (every few minutes) while this one opens and runs: neither
  // touches the other's folders (a sweep spares this process's own and the state of projects
  // whose root is there). The sweep is not waited for before the runs start, only when the
  // workspace is disposed.
  const sweeping =
    plan.mode !== 'in-place' || plan.sandboxOn ? sweepStaleViewsIfDue(stateBase(options.env)) : undefined;
  // settled at once, so a sweep that fails while the runs go on is not an unhandled rejection
  const swept = sweeping?.then(
    () => undefined,
    (error: unknown) => error,
  );
  let opened: Workspace;
  try {
    opened = await openMode(root, plan, support, options, holder);
  } catch (error) {
    // a holder the mode never set up (its folders could not be made) ends here
    await holder?.abandon();
    await swept;
    throw error;
  }
  try {
    opened = await guardRuns(root, opened, options);
  } catch (error) {
    await opened.dispose();
    await swept;
    throw error;
  }
  const dispose = opened.dispose.bind(opened);
  opened.dispose = async () => {
    await dispose();
    const failed = await swept;
    if (failed !== undefined) throw failed;
  };
  return opened;
}

async function openMode(
  root: string,
  plan: IsolationPlan,
  support: IsolationSupport,
  options: WorkspaceOptions,
  holder: PendingHolder | undefined,
): Promise<Workspace> {
  const ctx: ModeContext = {
    support,
    // A run in place without namespaces keeps no state outside the repository.
    stateDir: plan.mode === 'in-place' && !plan.sandboxOn ? '' : await projectStateDir(root, options.env),
    sandboxOn: plan.sandboxOn,
    envOnly: plan.envOnly,
    options,
    notes: plan.notes,
  };
  if (plan.sandboxOn || plan.envOnly)
    ctx.home = await sandboxHome({
      keep: [root, ...(options.writable ?? []), ...(options.repoRoot ? [options.repoRoot] : [])],
      ...(options.home ? { dir: options.home } : {}),
      fallback: ctx.stateDir,
      ...(options.sharedHome ? { shared: options.sharedHome } : {}),
      namespaces: plan.sandboxOn,
      stateDir: ctx.stateDir,
      ...(options.env ? { env: options.env } : {}),
    });
  ctx.cacheOps = await cacheLayerOps(ctx, options.cacheLayers ?? []);
  // the overlay's holder is already starting (`holder` is set exactly when the mode is overlay)
  if (holder) return openOverlay(root, ctx, holder);
  if (plan.mode === 'copy') return openCopy(root, ctx);
  return openInPlace(root, ctx);
}
