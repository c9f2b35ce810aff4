import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { constants } from 'node:os';
import { shellQuote } from '../../text/shell-quote.js';
import { plainTextStream } from './plain-text.js';
import { killSession, recordProcessGroup } from './process-groups.js';
import { currentSpawnWrapper, type SpawnPlan } from './spawn-context.js';
import { TailBuffer } from './tail-buffer.js';

export interface RunProcessOptions {
  cwd: string;
  /**
   * The child's whole environment, passed as given (default: this process's). Nothing is added:
   * the code under test sees what it sees natively, and colour is stripped from what suture reads.
   */
  env?: Record<string, string | undefined>;
  /** Wall-clock limit; the whole process group gets SIGTERM, then SIGKILL after `killGraceMs`. */
  timeoutMs: number;
  killGraceMs?: number;
  /**
   * How long output is still read after the command itself exits, while processes it left
   * behind (a test's server, a daemonized helper) hold its pipes open. Then the group is killed
   * and the pipes closed. Default 1000 ms.
   */
  drainMs?: number;
  signal?: AbortSignal;
  /** Bytes of combined output kept (the tail). Default 256 KiB. */
  tailBytes?: number;
  /** Called with each chunk of combined output (for live parsing); chunks are not retained. */
  onOutput?: (chunk: string) => void;
  input?: string;
}

export interface ProcessResult {
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** The executable could not be started (ENOENT, EACCES). */
  spawnError?: string;
  /** Bounded tail of stdout and stderr interleaved. */
  output: string;
  /** Total bytes seen, including the ones dropped from the tail. */
  outputBytes: number;
  durationMs: number;
}

type Ending = { code: number | null; signal: NodeJS.Signals | null } | { error: Error };

function definedEnv(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/** The plan of a command started directly: itself, as given. */
function directPlan(file: string, args: readonly string[], options: RunProcessOptions): SpawnPlan {
  return {
    file,
    args: [...args],
    cwd: options.cwd,
    env: definedEnv(options.env ?? process.env),
    signalsAsExitCodes: false,
  };
}

/** The signal a wrapped command died of, read back from the shell's 128 + n exit code. */
function signalOf(code: number | null): NodeJS.Signals | undefined {
  if (code === null || code <= 128) return undefined;
  const entry = Object.entries(constants.signals).find(([, n]) => n === code - 128);
  return entry?.[0] as NodeJS.Signals | undefined;
}

function start(plan: SpawnPlan, options: RunProcessOptions): ChildProcess | Error {
  try {
    return spawn(plan.file, plan.args, {
      cwd: plan.cwd,
      env: plan.env,
      detached: true,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** How long after a command's exit its output may take to close before a helper is taken to hold it. */
const HELD_MS = 50;

const closed = (stream: Readable): Promise<void> =>
  new Promise((resolve) => {
    if (stream.closed) resolve();
    else stream.once('close', () => resolve());
  });

/**
 * Runs a command in its own process group with a wall-clock limit. The run ends when the command
 * (the group leader) exits: output its leftovers still write is read for `drainMs`, then the
 * group is killed, so a helper holding stdout open cannot stretch a finished run to its limit.
 * On timeout or abort the whole group is killed (children that ignore SIGTERM included), so no
 * process of the run outlives it. Output is kept as a bounded tail, so a suite printing
 * gigabytes keeps memory flat.
 */
export async function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessResult> {
  const started = Date.now();
  const tail = new TailBuffer(options.tailBytes ?? 256 * 1024);
  const command = [file, ...args].map(shellQuote).join(' ');
  const result = (fields: Partial<ProcessResult>): ProcessResult => ({
    command,
    exitCode: null,
    signal: null,
    timedOut: false,
    aborted: false,
    output: tail.toString(),
    outputBytes: tail.totalBytes,
    durationMs: Date.now() - started,
    ...fields,
  });
  // Inside a workspace (the engine's runs) the command starts in its sandbox.
  const direct = directPlan(file, args, options);
  const wrapper = currentSpawnWrapper();
  const plan = wrapper ? await wrapper(file, args, { cwd: direct.cwd, env: direct.env }) : direct;
  if ('error' in plan) return result({ spawnError: plan.error });
  const child = start(plan, options);
  if (child instanceof Error) return result({ spawnError: child.message });

  let timedOut = false;
  let aborted = false;
  const ending = new Promise<Ending>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ error }));
  });
  const forget = child.pid !== undefined ? recordProcessGroup(child.pid, command) : (): void => undefined;
  const emit = (text: string): void => {
    if (!text) return;
    tail.push(text);
    options.onOutput?.(text);
  };
  const pipes = [child.stdout, child.stderr].filter((s): s is Readable => s !== null);
  const decoders = pipes.map((stream) => {
    const decode = plainTextStream();
    stream.on('data', (chunk: Buffer) => emit(decode.write(chunk)));
    return decode;
  });
  if (child.stdin) {
    // a command that exits without reading its input closes the pipe under us
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input);
  }

  const killGroup = (sig: NodeJS.Signals): void => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, sig);
    } catch {
      // the group is already gone
    }
  };
  let graceTimer: NodeJS.Timeout | undefined;
  const stop = (): void => {
    killGroup('SIGTERM');
    graceTimer = setTimeout(() => {
      if (child.pid !== undefined) killSession(child.pid);
    }, options.killGraceMs ?? 2000);
    graceTimer.unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = (): void => {
    aborted = true;
    stop();
  };
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener('abort', onAbort, { once: true });

  const end = await ending;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  if (!('error' in end)) {
    const allClosed = Promise.all(pipes.map(closed)).then(() => true);
    let drainTimer: NodeJS.Timeout | undefined;
    const waitFor = (ms: number): Promise<boolean> =>
      Promise.race([
        allClosed,
        new Promise<boolean>((resolve) => {
          drainTimer = setTimeout(() => resolve(false), ms);
        }),
      ]).finally(() => clearTimeout(drainTimer));
    if (plan.exited) {
      // the pipes close just after the exit, unless something the command left holds them
      const held = !(await waitFor(HELD_MS));
      await plan.exited(held);
      if (held) await waitFor(options.drainMs ?? 1000);
    } else await waitFor(options.drainMs ?? 1000);
  }
  // Descendants that outlived the leader (daemonized test helpers) still belong to its session,
  // in its group or in groups of their own (a build tool's jobs).
  if (child.pid !== undefined) killSession(child.pid);
  forget();
  if (graceTimer) clearTimeout(graceTimer);
  for (const stream of pipes) stream.destroy();
  decoders.forEach((decode) => emit(decode.end()));

  if ('error' in end) {
    return result(child.pid === undefined ? { spawnError: end.error.message } : { timedOut, aborted });
  }
  const died = plan.signalsAsExitCodes && end.signal === null ? signalOf(end.code) : undefined;
  if (died) return result({ exitCode: null, signal: died, timedOut, aborted });
  return result({ exitCode: end.code, signal: end.signal, timedOut, aborted });
}
