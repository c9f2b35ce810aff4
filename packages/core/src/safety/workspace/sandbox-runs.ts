import { isAbsolute, join, resolve } from 'node:path';
import type { SpawnWrapper } from '../process/spawn-context.js';
import { joinCommand, pidNamespaceCommand } from '../sandbox/command.js';
import { sandboxEnv, type SandboxEnvOptions } from '../sandbox/env.js';
import type { Holder } from '../sandbox/holder.js';
import type { IsolationSupport } from '../sandbox/support.js';
import { findExecutable } from '../sandbox/tools.js';

export interface SandboxRunsInput {
  support: IsolationSupport;
  /** The namespaces the runs join; without one, a run still gets a PID namespace where possible. */
  holder?: Holder;
  /** The environment allowlist applies. */
  envAllowlist: boolean;
  envOptions: SandboxEnvOptions;
  /** The runs' temp folder (TMPDIR): the real /tmp is read-only to them. */
  privateTmp?: string;
  /** Called before each start (a build folder suture made since the view was mounted is bound in). */
  beforeSpawn?: () => Promise<void>;
}

/** The environment a run gets: the allowlist, and the private temp folder where /tmp is read-only. */
function runEnv(env: Record<string, string>, input: SandboxRunsInput): Record<string, string> {
  const out = input.envAllowlist ? sandboxEnv(env, input.envOptions) : { ...env };
  if (input.privateTmp) {
    out.TMPDIR = input.privateTmp;
    out.TMP = input.privateTmp;
    out.TEMP = input.privateTmp;
    out.XDG_CACHE_HOME = join(input.privateTmp, '.cache');
  }
  return out;
}

/**
 * The spawn wrapper of a workspace: each command starts in the holder's namespaces (or a PID
 * namespace of its own) with the sandbox's environment. A command that does not exist is
 * refused here with the error a direct spawn gives, so runners still say what to install.
 */
export function sandboxRuns(input: SandboxRunsInput): SpawnWrapper {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const { tools } = input.support;
  return async (file, args, options) => {
    await input.beforeSpawn?.();
    const env = runEnv(options.env, input);
    const plain = { file, args: [...args], cwd: options.cwd, env, signalsAsExitCodes: false };
    if (!tools || !input.support.namespaces) return plain;
    const exe = file.includes('/') && !isAbsolute(file) ? resolve(options.cwd, file) : file;
    if (!findExecutable(exe, env.PATH)) return { error: `spawn ${file} ENOENT` };
    const common = { uid, gid, procMount: input.support.procMount };
    const command = input.holder
      ? joinCommand(
          tools,
          { ...common, holder: input.holder.pid, network: input.holder.ownNetwork },
          options.cwd,
          file,
          args,
        )
      : pidNamespaceCommand(tools, common, options.cwd, file, args);
    return { ...command, cwd: '/', env, signalsAsExitCodes: true };
  };
}
