import { isAbsolute, join, relative, resolve } from 'node:path';
import { runProcess } from '@suture/core';

/** A frame of a debugger backtrace inside the project, innermost first. */
export interface BacktraceFrame {
  file: string;
  line: number;
  fn: string;
}

/** How long the crashing program may run under the debugger. */
const DEBUG_TIME_LIMIT_MS = 30_000;

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
 * Runs a test that crashed without saying where (a segfault with no sanitizer) once more under
 * gdb and returns the project frames of its backtrace. The command comes from CTest itself
 * (`--show-only=json-v1`); a GoogleTest case of a whole-program entry runs alone. Undefined when
 * gdb is missing, the test cannot be found, or it no longer crashes.
 */
export async function crashBacktrace(
  root: string,
  buildDir: string,
  testId: string,
): Promise<BacktraceFrame[] | undefined> {
  const [entry, kase] = testId.includes('::') ? testId.split('::') : [testId, undefined];
  const build = join(root, buildDir);
  const listing = await runProcess('ctest', ['--test-dir', build, '--show-only=json-v1'], {
    cwd: root,
    timeoutMs: 20_000,
    tailBytes: 8 * 1024 * 1024,
  });
  if (listing.exitCode !== 0) return undefined;
  let tests: ListedTest[];
  try {
    tests = (JSON.parse(listing.output) as { tests?: ListedTest[] }).tests ?? [];
  } catch {
    return undefined;
  }
  const test = tests.find((t) => t.name === entry);
  if (!test?.command?.length) return undefined;
  const cwd = test.properties?.find((p) => p.name === 'WORKING_DIRECTORY')?.value;
  const command = [...test.command, ...(kase ? [`--gtest_filter=${kase}`] : [])];
  const r = await runProcess('gdb', ['-batch', '-nx', '-ex', 'run', '-ex', 'bt', '--args', ...command], {
    cwd: typeof cwd === 'string' ? cwd : build,
    timeoutMs: DEBUG_TIME_LIMIT_MS,
    tailBytes: 256 * 1024,
  });
  if (r.spawnError || r.timedOut || !/Program received signal/.test(r.output)) return undefined;
  const frames = parseBacktrace(r.output.slice(r.output.indexOf('Program received signal')), root, buildDir);
  return frames.length > 0 ? frames : undefined;
}
