import { StringDecoder } from 'node:string_decoder';
import { stripVTControlCharacters } from 'node:util';
import { execa } from 'execa';
import { shellQuote } from '../../text/shell-quote.js';
import { recordProcessGroup } from './process-groups.js';
import { TailBuffer } from './tail-buffer.js';

/**
 * Colour is switched off for every child: suture parses what tools print, and a `FORCE_COLOR`
 * inherited from the user's CI (or from nx) makes Node colour its stack frames and pytest its
 * tracebacks. `FORCE_COLOR=0` would not do: pytest treats any non-empty FORCE_COLOR as "on".
 */
const NO_COLOR_ENV: Readonly<Record<string, string | undefined>> = {
  FORCE_COLOR: undefined,
  CLICOLOR_FORCE: undefined,
  NO_COLOR: '1',
  PY_COLORS: '0',
  GTEST_COLOR: 'no',
};

/** A complete escape sequence: CSI, OSC (ended by BEL or ST), or a two-character escape. */
const ESCAPE = /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\^_])/y;
/** How far back an unfinished escape is held for the next chunk (an OSC hyperlink carries a URL); further back it is stray. */
const MAX_ESCAPE = 512;

/**
 * Where an escape sequence that has not ended yet starts, or -1. The scan may start at any ESC
 * of the tail: the only ESC inside a sequence begins an OSC's ST terminator, itself complete.
 */
function unfinishedEscape(text: string): number {
  for (
    let i = text.indexOf('\x1b', Math.max(0, text.length - MAX_ESCAPE));
    i !== -1;
    i = text.indexOf('\x1b', ESCAPE.lastIndex)
  ) {
    ESCAPE.lastIndex = i;
    if (!ESCAPE.test(text)) return i;
  }
  return -1;
}

/**
 * Decodes one byte stream to text without ANSI escapes. Multi-byte characters and escape
 * sequences split across chunks are held back until their end arrives; bytes that are not UTF-8
 * become U+FFFD instead of failing the run.
 */
function plainTextStream(): { write(chunk: Buffer | string): string; end(): string } {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  const strip = (text: string, final: boolean): string => {
    const all = pending + text;
    const cut = final ? -1 : unfinishedEscape(all);
    pending = cut === -1 ? '' : all.slice(cut);
    return stripVTControlCharacters(cut === -1 ? all : all.slice(0, cut));
  };
  return {
    write: (chunk) => strip(typeof chunk === 'string' ? chunk : decoder.write(chunk), false),
    end: () => strip(decoder.end(), true),
  };
}

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
export async function runProcess(
  file: string,
  args: readonly string[],
  options: RunProcessOptions,
): Promise<ProcessResult> {
  const started = Date.now();
  const tail = new TailBuffer(options.tailBytes ?? 256 * 1024);
  const command = [file, ...args].map(shellQuote).join(' ');
  let timedOut = false;
  let aborted = false;
  const child = execa(file, args, {
    cwd: options.cwd,
    env: { ...options.env, ...NO_COLOR_ENV },
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
  const forget = child.pid !== undefined ? recordProcessGroup(child.pid, command) : (): void => undefined;
  const emit = (text: string): void => {
    if (!text) return;
    tail.push(text);
    options.onOutput?.(text);
  };
  const streams = [child.stdout, child.stderr].flatMap((stream) => {
    if (!stream) return [];
    const decode = plainTextStream();
    stream.on('data', (chunk: Buffer | string) => emit(decode.write(chunk)));
    return [decode];
  });

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
  for (const decode of streams) emit(decode.end());
  clearTimeout(timer);
  options.signal?.removeEventListener('abort', onAbort);
  // Descendants that outlived the leader (daemonized test helpers) still belong to the group.
  killGroup('SIGKILL');
  forget();
  if (graceTimer) clearTimeout(graceTimer);

  const spawnFailed =
    result.failed && result.exitCode === undefined && !result.signal && !timedOut && !aborted;
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
