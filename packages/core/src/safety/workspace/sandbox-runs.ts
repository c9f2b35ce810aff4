import { isAbsolute, join, resolve } from 'node:path';
import { withSpawnWrapper, type SpawnWrapper } from '../process/spawn-context.js';
import { pidNamespaceCommand, runSpaceCommand } from '../sandbox/command.js';
import { sandboxEnv, type SandboxEnvOptions } from '../sandbox/env.js';
import type { Holder } from '../sandbox/holder.js';
import { startRunSpace, type RunSpace } from '../sandbox/run-space.js';
import type { IsolationSupport } from '../sandbox/support.js';
import { findExecutable } from '../sandbox/tools.js';

/** A run's space, with the count of mount changes it was made after. */
interface Space {
  mounts: number;
  space: RunSpace;
}

export interface SandboxRunsInput {
  support: IsolationSupport;
  /** The namespaces the runs join; without one, a run still gets a PID namespace where possible. */
  holder?: Holder;
  /** The environment allowlist applies. */
  envAllowlist: boolean;
  envOptions: SandboxEnvOptions;
  /** The runs' temp folder (TMPDIR): the real /tmp is read-only to them. */
  privateTmp?: string;
  /**
   * Called before each start (a build folder suture made since the view was mounted is bound in);
   * true when it changed the holder's mounts.
   */
  beforeSpawn?: () => Promise<boolean>;
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

/** How a workspace runs commands: each run of the engine's in the sandbox, as far as it applies. */
export interface SandboxRuns {
  /** Runs `fn` with every process it starts through runProcess in the sandbox. */
  run<T>(fn: () => Promise<T>): Promise<T>;
  /** Ends the space kept ready for a next run. */
  close(): Promise<void>;
}

/**
 * The runs of a workspace: each command starts in the holder's namespaces (or a PID namespace of
 * its own) with the sandbox's environment. With a holder, a run's commands share one PID
 * namespace, the run's space, which ends with the run (the next one's is made while the engine
 * works between runs). A command that does not exist is refused here with the error a direct
 * spawn gives, so runners still say what to install.
 */
export function sandboxRuns(input: SandboxRunsInput): SandboxRuns {
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const { tools } = input.support;
  const common = { uid, gid, procMount: input.support.procMount };
  const holder = input.support.namespaces && tools ? input.holder : undefined;
  /** Counts the changes to the holder's mounts: a space made before one does not show it. */
  let mounts = 0;
  const space = (): Space | undefined =>
    holder
      ? {
          mounts,
          space: startRunSpace(tools!, { ...common, holder: holder.pid, network: holder.ownNetwork }),
        }
      : undefined;
  /**
   * The spaces of one run: a new one is made when the mounts changed since the current one was,
   * or when the current one was ended early.
   */
  interface Run {
    current: Space | undefined;
    all: Space[];
    /** The commands started in the current space and not yet exited. */
    running: number;
  }
  const wrapper =
    (run: Run | undefined): SpawnWrapper =>
    async (file, args, options) => {
      if (await input.beforeSpawn?.()) mounts++;
      const env = runEnv(options.env, input);
      const plain = { file, args: [...args], cwd: options.cwd, env, signalsAsExitCodes: false };
      if (!tools || !input.support.namespaces) return plain;
      const exe = file.includes('/') && !isAbsolute(file) ? resolve(options.cwd, file) : file;
      if (!findExecutable(exe, env.PATH)) return { error: `spawn ${file} ENOENT` };
      if (run) {
        if (!run.current || run.current.mounts !== mounts) {
          run.all.push((run.current = space()!));
          run.running = 0;
        }
        const joined = run.current;
        try {
          await joined.space.ready;
        } catch (error) {
          return { error: (error as Error).message };
        }
        const command = runSpaceCommand(
          tools,
          { pid: joined.space.pid!, network: holder!.ownNetwork },
          options.cwd,
          file,
          args,
        );
        run.running++;
        return {
          ...command,
          cwd: '/',
          env,
          signalsAsExitCodes: false,
          exited: async (held) => {
            if (run.current !== joined) return;
            run.running--;
            // A helper the command left holds its output: when no other command is in the space,
            // the space ends now, as a namespace of the command's own would, and the run's next
            // command gets a new one.
            if (held && run.running === 0) {
              run.current = undefined;
              await joined.space.close();
            }
          },
        };
      }
      const command = pidNamespaceCommand(tools, common, options.cwd, file, args);
      return { ...command, cwd: '/', env, signalsAsExitCodes: true };
    };
  let spare = space();
  let closed = false;
  return {
    async run(fn) {
      if (!holder) return withSpawnWrapper(wrapper(undefined), fn);
      const first = spare ?? space()!;
      spare = undefined;
      const run: Run = { current: first, all: [first], running: 0 };
      try {
        return await withSpawnWrapper(wrapper(run), fn);
      } finally {
        // A space its commands left nothing in serves the next run; any other ends with this one.
        const last = run.current;
        const reuse =
          !closed && !spare && last?.mounts === mounts && (await last.space.idle()) ? last : undefined;
        await Promise.all(run.all.filter((s) => s !== reuse).map((s) => s.space.close()));
        if (!closed && !spare) spare = reuse ?? space();
      }
    },
    async close() {
      closed = true;
      await spare?.space.close();
      spare = undefined;
    },
  };
}
