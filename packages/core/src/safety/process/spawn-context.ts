import { AsyncLocalStorage } from 'node:async_hooks';

/** How one process is really started: possibly another program that sets up its sandbox first. */
export interface SpawnPlan {
  file: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /**
   * The command runs under a shell that reports a death by signal as exit code 128 + n (a PID
   * namespace's first process cannot die of most signals itself): such codes are read back as signals.
   */
  signalsAsExitCodes: boolean;
  /**
   * Called once the command has exited, with whether its output was still held open a moment
   * later (a helper it left running has it): the sandbox may then end what the command left.
   */
  exited?: (outputHeld: boolean) => Promise<void>;
}

/** Turns a command into its plan, or says why it cannot start (a missing executable). */
export type SpawnWrapper = (
  file: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
) => Promise<SpawnPlan | { error: string }>;

/**
 * One store per process, whatever copy of @suture/core reads it: a plugin may import runProcess
 * from its own copy (a nested node_modules, a bundled build) and must still run in the workspace.
 */
const WRAPPERS = Symbol.for('@suture/core/spawn-wrapper');
const wrappers = ((globalThis as Record<symbol, unknown>)[WRAPPERS] ??=
  new AsyncLocalStorage<SpawnWrapper>()) as AsyncLocalStorage<SpawnWrapper>;

/**
 * Runs `fn` with every process it starts through runProcess planned by `wrapper`: the engine
 * wraps a runner's run in its workspace this way, so the runner's own code needs no change to
 * have its tests run in the copy-on-write view and the sandbox.
 */
export function withSpawnWrapper<T>(wrapper: SpawnWrapper, fn: () => Promise<T>): Promise<T> {
  return wrappers.run(wrapper, fn);
}

/** The wrapper in force for the current call, if any. */
export function currentSpawnWrapper(): SpawnWrapper | undefined {
  return wrappers.getStore();
}
