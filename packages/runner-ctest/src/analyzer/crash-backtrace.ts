import { stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { runProcess } from '@suture/core';
import { STUCK_HEADER } from '../ctest-output.js';

/** A frame of a debugger backtrace inside the project, innermost first. */
export interface BacktraceFrame {
  file: string;
  line: number;
  fn: string;
}

/** How long the crashing program may run under the debugger. */
const DEBUG_TIME_LIMIT_MS = 30_000;
/**
 * The innermost frames asked of gdb. A stack overflow has some hundred thousand frames: a whole
 * `bt` printed megabytes for minutes, and the output's tail kept only the outermost ones.
 */
export const BACKTRACE_FRAMES = 64;

interface ListedTest {
  name: string;
  command?: string[];
  properties?: Array<{ name: string; value: unknown }>;
}

/** `#3  0x... in parse_object (item=...) at /abs/cJSON.c:1751` or `#0  parse_object (...) at file:line`. */
export function parseBacktrace(text: string, root: string, buildDir: string): BacktraceFrame[] {
  const out: BacktraceFrame[] = [];
  for (const m of text.matchAll(/^#\d+\s+(?:0x[0-9a-f]+ in )?([\w:~<>]+) \(.*\) at (\S+):(\d+)$/gm)) {
    const abs = isAbsolute(m[2]!) ? resolve(m[2]!) : resolve(root, m[2]!);
    const rel = relative(root, abs).split('\\').join('/');
    if (rel.startsWith('..') || isAbsolute(rel) || rel.startsWith(`${buildDir}/`)) continue;
    out.push({ file: rel, line: Number(m[3]), fn: m[1]!.split('::').pop()! });
  }
  return out;
}

/**
 * The project frames of the backtrace the runner took of a test it stopped at its time limit
 * (under STUCK_HEADER in the test's output), innermost first; undefined when there is none.
 */
export function stuckBacktrace(output: string, root: string, buildDir: string): BacktraceFrame[] | undefined {
  const at = output.lastIndexOf(STUCK_HEADER);
  if (at < 0) return undefined;
  const frames = parseBacktrace(output.slice(at + STUCK_HEADER.length), root, buildDir);
  return frames.length > 0 ? frames : undefined;
}

/** CTest's tests of a build folder (`--show-only=json-v1`). */
async function listTests(root: string, build: string): Promise<ListedTest[] | undefined> {
  const listing = await runProcess('ctest', ['--test-dir', build, '--show-only=json-v1'], {
    cwd: root,
    timeoutMs: 20_000,
    tailBytes: 8 * 1024 * 1024,
  });
  if (listing.exitCode !== 0) return undefined;
  try {
    return (JSON.parse(listing.output) as { tests?: ListedTest[] }).tests ?? [];
  } catch {
    return undefined;
  }
}

/** What CTest says it runs for an entry: the command and its folder. */
async function listedTest(
  root: string,
  build: string,
  entry: string,
  memo?: CrashBacktraces,
): Promise<{ command: string[]; cwd: string } | undefined> {
  // the listing changes only when CMake writes the build's test file again
  const testFile = await stat(join(build, 'CTestTestfile.cmake')).catch(() => undefined);
  const key = testFile && [build, testFile.mtimeMs, testFile.size].join('\0');
  let tests = key ? memo?.listings.get(key) : undefined;
  if (!tests) {
    tests = listTests(root, build);
    if (key) memo?.listings.set(key, tests);
  }
  const test = (await tests)?.find((t) => t.name === entry);
  if (!test?.command?.length) return undefined;
  const cwd = test.properties?.find((p) => p.name === 'WORKING_DIRECTORY')?.value;
  return { command: test.command, cwd: typeof cwd === 'string' ? cwd : build };
}

/**
 * Runs a test that crashed without saying where (a segfault with no sanitizer) once more under
 * gdb and returns the project frames of its backtrace. The command comes from CTest itself
 * (`--show-only=json-v1`); a GoogleTest case of a whole-program entry runs alone. Undefined when
 * gdb is missing, the test cannot be found, or it no longer crashes.
 */
export async function crashBacktrace(
  root: string,
  buildDir: string,
  testId: string,
  memo?: CrashBacktraces,
): Promise<BacktraceFrame[] | undefined> {
  const [entry, kase] = testId.includes('::') ? testId.split('::') : [testId, undefined];
  const build = join(root, buildDir);
  const test = await listedTest(root, build, entry!, memo);
  if (!test) return undefined;
  const command = [...test.command, ...(kase ? [`--gtest_filter=${kase}`] : [])];
  // the same program, built the same, crashes the same: a second scope of it needs no debugger
  const program = await stat(resolve(test.cwd, test.command[0]!)).catch(() => undefined);
  const key = program && [root, command.join('\0'), program.mtimeMs, program.size].join('\0');
  const known = key ? memo?.frames.get(key) : undefined;
  if (known) return known;
  const found = debuggerFrames(root, buildDir, command, test.cwd);
  if (key) memo?.frames.set(key, found);
  return found;
}

/**
 * What an analyzer keeps between scopes: CTest's listing of a build (by its test file's stamp)
 * and the backtraces of crashes already debugged (by program, arguments and the program's stamp).
 */
export class CrashBacktraces {
  readonly listings = new Map<string, Promise<ListedTest[] | undefined>>();
  readonly frames = new Map<string, Promise<BacktraceFrame[] | undefined>>();
}

/** Runs a command under gdb and returns the project frames where it stopped on a signal, innermost first. */
export async function debuggerFrames(
  root: string,
  buildDir: string,
  command: readonly string[],
  cwd: string,
): Promise<BacktraceFrame[] | undefined> {
  const bt = `bt ${BACKTRACE_FRAMES}`;
  const r = await runProcess('gdb', ['-batch', '-nx', '-ex', 'run', '-ex', bt, '--args', ...command], {
    cwd,
    timeoutMs: DEBUG_TIME_LIMIT_MS,
    tailBytes: 256 * 1024,
  });
  if (r.spawnError || r.timedOut || !/Program received signal/.test(r.output)) return undefined;
  const frames = parseBacktrace(r.output.slice(r.output.indexOf('Program received signal')), root, buildDir);
  return frames.length > 0 ? frames : undefined;
}
