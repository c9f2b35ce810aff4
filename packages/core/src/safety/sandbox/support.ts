import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freshDir, privateDir, removeTree, stateBase } from '../workspace/state-dir.js';
import { phase } from '../phase.js';
import { joinCommand } from './command.js';
import { startHolder, type Holder, type SetupOp } from './holder.js';
import { cachedSupport } from './support-cache.js';
import { findSandboxTools, type SandboxTools } from './tools.js';

const run = promisify(execFile);

/** What this machine allows, found by doing it once (namespaces are often refused by policy). */
export interface IsolationSupport {
  tools?: SandboxTools;
  /** Private user and mount namespaces can be made and joined, with a PID namespace per run. */
  namespaces: boolean;
  /** An overlay can be mounted in them. */
  overlay: boolean;
  /** A private network namespace with its loopback up (needs iproute2's ip). */
  network: boolean;
  /** Mounts outside the workspace can be made read-only. */
  readOnly: boolean;
  /** A run's PID namespace can have its own /proc. */
  procMount: boolean;
  /** Why namespaces (or the overlay, or the network) are not available, with what would fix it. */
  reasons: string[];
}

export const NO_NAMESPACES_ENV = 'SUTURE_NO_NAMESPACES';

const UNSUPPORTED = (reasons: string[], tools?: SandboxTools): IsolationSupport => ({
  ...(tools ? { tools } : {}),
  namespaces: false,
  overlay: false,
  network: false,
  readOnly: false,
  procMount: false,
  reasons,
});

const NAMESPACE_HELP =
  'unprivileged user namespaces look disabled: allow them (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 kernel.apparmor_restrict_unprivileged_userns=0; in Docker, --security-opt seccomp=unconfined)';

async function probe(env: NodeJS.ProcessEnv, remember: boolean): Promise<IsolationSupport> {
  if (process.platform !== 'linux')
    return UNSUPPORTED([`namespaces are a Linux feature; on ${process.platform} runs are not isolated`]);
  if (env[NO_NAMESPACES_ENV] === '1') return UNSUPPORTED([`${NO_NAMESPACES_ENV}=1 turns namespaces off`]);
  const tools = findSandboxTools(env);
  if ('missing' in tools)
    return UNSUPPORTED([
      `${tools.missing.join(', ')} not found: install util-linux (apt-get install util-linux)`,
    ]);
  const fresh = async (): Promise<IsolationSupport> => {
    const dir = await freshDir(await privateDir(stateBase(env)), 'probe');
    try {
      return await probeIn(dir, tools);
    } finally {
      await removeTree(dir);
    }
  };
  return remember ? cachedSupport(tools, env, fresh) : fresh();
}

async function probeIn(dir: string, tools: SandboxTools): Promise<IsolationSupport> {
  const root = join(dir, 'root');
  const layers = join(dir, 'layers');
  for (const d of [root, join(layers, 'lower'), join(layers, 'upper'), join(layers, 'work')])
    await mkdir(d, { recursive: true });
  await writeFile(join(root, 'file'), 'user\n');
  const reasons: string[] = [];
  const withOverlay: SetupOp[] = [
    ...(tools.ip ? [{ op: 'loopback' as const, ip: tools.ip }] : []),
    { op: 'stash', src: root, dst: join(layers, 'lower') },
    { op: 'read-only' },
    { op: 'bind', src: layers, dst: layers },
    {
      op: 'overlay',
      lower: join(layers, 'lower'),
      upper: join(layers, 'upper'),
      work: join(layers, 'work'),
      target: root,
    },
  ];
  let holder: Holder;
  let overlay = true;
  try {
    holder = await startHolder(tools, withOverlay, { network: true });
  } catch (error) {
    overlay = false;
    reasons.push(`an overlay cannot be mounted: ${(error as Error).message}`);
    try {
      holder = await startHolder(tools, [{ op: 'read-only' }, { op: 'bind', src: root, dst: root }], {
        network: true,
      });
    } catch (again) {
      return UNSUPPORTED([`${NAMESPACE_HELP} (${(again as Error).message})`], tools);
    }
  }
  phase('isolation:probe');
  try {
    const uid = process.getuid?.() ?? 0;
    const gid = process.getgid?.() ?? 0;
    const attempt = async (procMount: boolean): Promise<boolean> => {
      const cmd = joinCommand(
        tools,
        { holder: holder.pid, network: true, uid, gid, procMount },
        root,
        tools.sh,
        ['-c', 'echo view > file && test "$(id -u)" = "$1"', 'probe', String(uid)],
      );
      try {
        await run(cmd.file, cmd.args, { cwd: dir, timeout: 20_000 });
        return true;
      } catch {
        return false;
      }
    };
    const procMount = await attempt(true);
    const joined = procMount || (await attempt(false));
    if (!joined) return UNSUPPORTED([`${NAMESPACE_HELP} (a run could not join the sandbox)`], tools);
    if (overlay && (await readFile(join(root, 'file'), 'utf8')) !== 'user\n') {
      overlay = false;
      reasons.push('a write in the overlay reached the real folder');
    }
    if (!tools.ip) reasons.push('ip not found: install iproute2 to run tests without network access');
    if (holder.facts.readOnlyFailures.length > 0)
      reasons.push(`mounts that stay writable: ${holder.facts.readOnlyFailures.join('; ')}`);
    return {
      tools,
      namespaces: true,
      overlay,
      network: holder.facts.network,
      readOnly: holder.facts.readOnly && holder.facts.readOnlyFailures.length === 0,
      procMount,
      reasons,
    };
  } finally {
    await holder.close();
  }
}

let cached: Promise<IsolationSupport> | undefined;

/**
 * What isolation this machine supports: probed once per process, and the answer kept on disk
 * for the next commands until the kernel, its policy, the mounts or the tools change.
 */
export function isolationSupport(env: NodeJS.ProcessEnv = process.env): Promise<IsolationSupport> {
  const failed = (error: unknown): IsolationSupport =>
    UNSUPPORTED([`the isolation probe failed: ${(error as Error).message}`]);
  if (env !== process.env) return probe(env, false).catch(failed);
  cached ??= probe(env, true).catch(failed);
  return cached;
}

/** Leaves out the probe result a test changed the environment for. */
export function forgetIsolationSupport(): void {
  cached = undefined;
}
