import { execa } from 'execa';
import { TailBuffer } from './tail-buffer.js';

export interface RunProcessOptions {
  cwd: string;
  env?: Record<string, string | undefined>;
  /** Wall-clock limit; the whole process group gets SIGTERM, then SIGKILL after `killGraceMs`. */
  timeoutMs: number;
  killGraceMs?: number;
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

/**
 * Runs a command in its own process group with a wall-clock limit. On timeout or abort the whole
 * group is killed (children that ignore SIGTERM included), so no process of the run outlives it.
 * Output is kept as a bounded tail, so a suite printing gigabytes keeps memory flat.
 */
export async function runProcess(file: string, args: readonly string[], options: RunProcessOptions): Promise<ProcessResult> {
  const started = Date.now();
  const tail = new TailBuffer(options.tailBytes ?? 256 * 1024);
  const command = [file, ...args].map(quoteForDisplay).join(' ');
  let timedOut = false;
  let aborted = false;
  const child = execa(file, args, {
    cwd: options.cwd,
    env: options.env,
    extendEnv: false,
    detached: true,
    reject: false,
    stdin: options.input === undefined ? 'ignore' : 'pipe',
    input: options.input,
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    cleanup: true,
    windowsHide: true,
  });
  const onChunk = (chunk: Buffer | string): void => {
    const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    tail.push(text);
    options.onOutput?.(text);
  };
  child.stdout?.on('data', onChunk);
  child.stderr?.on('data', onChunk);

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
    graceTimer = setTimeout(() => killGroup('SIGKILL'), options.killGraceMs ?? 2000);
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

  const result = await child;
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Descendants that outlived the leader (daemonized test helpers) still belong to the group.
  killGroup('SIGKILL');
  if (graceTimer) clearTimeout(graceTimer);

  const spawnFailed = result.failed && result.exitCode === undefined && !result.signal && !timedOut && !aborted;
  return {
    command,
    exitCode: result.exitCode ?? null,
    signal: result.signal ?? null,
    timedOut,
    aborted,
    spawnError: spawnFailed ? (result.originalMessage ?? result.shortMessage) : undefined,
    output: tail.toString(),
    outputBytes: tail.totalBytes,
    durationMs: Date.now() - started,
  };
}

function quoteForDisplay(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
