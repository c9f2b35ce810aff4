import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { projectFrames } from '../analyzer/stack.js';

/**
 * reporter/suture-stack-start.cjs: what starts the stack helper in a process that runs tests
 * (its `startStackHelper(dir)`, or a `--require` with the folder in `SUTURE_STACKS_DIR`).
 */
export const STACK_START = join(
  dirname(createRequire(import.meta.url).resolve('@suture/runner-jest/package.json')),
  'reporter',
  'suture-stack-start.cjs',
);
/** The variable reporter/suture-stack-start.cjs reads the folder from when it is a --require. */
export const STACKS_DIR_ENV = 'SUTURE_STACKS_DIR';
/** How long a stop waits for the stack of the test it stops. */
export const CAPTURE_BOUND_MS = 1_000;
const POLL_MS = 25;

/** One frame as the inspector gave it: 1-based line and column in the code the engine ran. */
export interface StackFrame {
  functionName: string;
  url: string;
  line: number;
  column: number;
  sourceMapURL?: string;
}

/** The main thread's stack of one process that runs tests, written by reporter/suture-stack-helper.cjs. */
export interface ProcessStack {
  pid: number;
  frames: StackFrame[];
  /**
   * The same stack as an Error made in the paused frame prints it (two frames of its own first):
   * through the test tool's hook of Error.prepareStackTrace, which maps it with the source maps
   * the tool keeps.
   */
  text?: string;
}

/** Where a stopped test was stuck, paths relative to the project root, or why it is not known. */
export type Stuck =
  { at?: { file: string; line: number; column: number; fn?: string }; trace: string } | { error: string };

const pathOf = (url: string): string => (url.startsWith('file://') ? fileURLToPath(url) : url);

/** Whether a stack ran code of `file` (an absolute path). */
export function hasFile(stack: ProcessStack, file: string): boolean {
  return stack.frames.some((f) => pathOf(f.url) === file);
}

async function readStacks(dir: string): Promise<ProcessStack[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: ProcessStack[] = [];
  for (const name of names.filter((n) => /^stack-\d+\.json$/.test(n))) {
    try {
      const s = JSON.parse(await readFile(join(dir, name), 'utf8')) as ProcessStack;
      if (Array.isArray(s.frames)) out.push(s);
    } catch {
      // written by a process of the tests: a file that does not parse is no stack
    }
  }
  return out;
}

/**
 * Asks every process of the pass that runs tests for its main thread's stack (a `request` file
 * in `dir`, which their helpers look for) and collects the answers until one has run code of
 * each of `files`, or `boundMs` has passed: a process that does not answer (blocked in native
 * code, or without its helper) costs the bound and no more.
 */
export async function requestStacks(
  dir: string,
  files: readonly string[],
  boundMs = CAPTURE_BOUND_MS,
): Promise<ProcessStack[]> {
  const until = Date.now() + boundMs;
  try {
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'request'), '');
  } catch {
    return [];
  }
  for (;;) {
    const stacks = await readStacks(dir);
    if (files.every((f) => stacks.some((s) => hasFile(s, f)))) return stacks;
    if (Date.now() >= until) return stacks;
    await new Promise((r) => setTimeout(r, Math.min(POLL_MS, Math.max(0, until - Date.now()))));
  }
}

const maps = new Map<string, TraceMap | null>();

/** The source map inlined in a script (a `data:` URL), as Vitest and Jest's transforms write it. */
function inlineMap(frame: StackFrame): TraceMap | null {
  const url = frame.sourceMapURL;
  if (!url?.startsWith('data:')) return null;
  const key = `${frame.url}\0${url.length}\0${url.slice(-64)}`;
  if (!maps.has(key)) {
    let map: TraceMap | null = null;
    try {
      const comma = url.indexOf(',');
      const meta = url.slice(5, comma);
      const body = url.slice(comma + 1);
      const text = meta.endsWith(';base64')
        ? Buffer.from(body, 'base64').toString('utf8')
        : decodeURIComponent(body);
      map = new TraceMap(text, pathOf(frame.url));
    } catch {
      map = null;
    }
    maps.set(key, map);
  }
  return maps.get(key)!;
}

interface Place {
  file: string;
  line: number;
  column: number;
}

/** A frame's place in the source its code came from, through the script's inline source map. */
function mapped(frame: StackFrame): Place & { viaMap: boolean } {
  const file = pathOf(frame.url);
  const { line, column } = frame;
  const map = inlineMap(frame);
  if (map) {
    const pos = originalPositionFor(map, { line, column: column - 1 });
    if (pos.source && pos.line != null) {
      const source = pathOf(pos.source);
      return {
        file: isAbsolute(source) ? source : join(file, '..', source),
        line: pos.line,
        column: (pos.column ?? 0) + 1,
        viaMap: true,
      };
    }
  }
  return { file, line, column, viaMap: false };
}

/**
 * The places of the stack as the paused code printed it, without the frames of the evaluation
 * that printed it. Only their places are taken: the function names that source-map hooks print
 * are not always the frame's own (Jest's name a frame after the function it calls).
 */
function printedPlaces(stack: ProcessStack): Place[] {
  if (!stack.text) return [];
  const out: Place[] = [];
  for (const m of stack.text.matchAll(/^\s*at (?:(.+?) \()?(.+?):(\d+):(\d+)\)?$/gm)) {
    if (m[0].includes('(eval at ')) continue;
    out.push({ file: pathOf(m[2]!), line: Number(m[3]), column: Number(m[4]) });
  }
  return out;
}

/**
 * Each frame as `at fn (file:line:column)`, in the source its code came from: through the
 * script's inline source map, or else through the line the paused code printed for the same
 * file, in order (Vitest 5 names no map in the scripts it runs, and maps them in its hook).
 */
function frameLines(stack: ProcessStack): string[] {
  const printed = printedPlaces(stack);
  let next = 0;
  return stack.frames.map((frame) => {
    const { viaMap, ...own } = mapped(frame);
    let place: Place = own;
    const at = printed.findIndex((p, i) => i >= next && p.file === own.file);
    if (at >= 0) {
      next = at + 1;
      if (!viaMap) place = printed[at]!;
    }
    const where = `${place.file}:${place.line}:${place.column}`;
    return frame.functionName ? `    at ${frame.functionName} (${where})` : `    at ${where}`;
  });
}

/**
 * Where a test of `file` (absolute) was stuck, from the stacks its pass's processes gave: the
 * one that ran code of the file, with its innermost frame in the project (the test file or the
 * code under test, not node_modules or Node's own code).
 */
export function stuckIn(root: string, file: string, stacks: readonly ProcessStack[]): Stuck {
  const stack = stacks.find((s) => hasFile(s, file));
  if (!stack)
    return {
      error: `its stack could not be taken within ${CAPTURE_BOUND_MS} ms (the process did not answer: blocked in native code, or it runs in a worker thread)`,
    };
  const text = frameLines(stack).join('\n');
  const shown = text
    .split('\n')
    .map((l) =>
      l.replace(/(\(|at )(\/[^():]+|[A-Za-z]:\\[^():]+)(?=:\d+:\d+)/, (m, pre: string, path: string) => {
        const rel = relative(root, path);
        return rel.startsWith('..') || isAbsolute(rel) ? m : `${pre}${rel.split('\\').join('/')}`;
      }),
    )
    .join('\n');
  const inner = projectFrames(root, text)[0];
  return {
    trace: shown,
    ...(inner
      ? {
          at: {
            file: inner.file,
            line: inner.line,
            column: inner.column,
            ...(inner.fn ? { fn: inner.fn } : {}),
          },
        }
      : {}),
  };
}

/** The sentence a timeout's message ends with, and the details and trace of its result. */
export function stuckReport(stuck: Stuck | undefined): {
  sentence: string;
  trace?: string;
  details?: Record<string, unknown>;
} {
  if (!stuck) return { sentence: '' };
  if ('error' in stuck)
    return { sentence: ` Where it was stuck is not known: ${stuck.error}.`, details: { stuckAt: null } };
  const at = stuck.at;
  return {
    sentence: at
      ? ` When it was stopped it was at ${at.file}:${at.line}${at.fn ? ` in ${at.fn}()` : ''}.`
      : ' When it was stopped it ran no code of the project (its stack is in the trace).',
    trace: stuck.trace,
    details: {
      stuckAt: at
        ? { file: at.file, line: at.line, column: at.column, ...(at.fn ? { function: at.fn } : {}) }
        : null,
    },
  };
}
