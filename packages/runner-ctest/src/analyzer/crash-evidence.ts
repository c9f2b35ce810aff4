import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestResult } from '@suture/core';
import { readCompileDb } from './compile-db.js';
import { crashBacktrace, type BacktraceFrame, type CrashBacktraces } from './crash-backtrace.js';

/** CTest's words for a signal, and the signal with what it means. */
const SIGNALS: Array<[RegExp, string]> = [
  [/SegFault/i, 'SIGSEGV, a segmentation fault: a read or write of memory the program does not own'],
  [/abort/i, 'SIGABRT: the program aborted itself (a failed assert, std::terminate, a libc check)'],
  [/Numerical/i, 'SIGFPE: an arithmetic error (an integer division by zero)'],
  [/Illegal/i, 'SIGILL: an illegal instruction (undefined behaviour reached, a trap)'],
  [/Bus error/i, 'SIGBUS: a misaligned or unmapped memory access'],
  [/Interrupt/i, 'SIGINT'],
];
/** Crashed programs run again under the debugger by one analysis, at most: each run costs seconds. */
export const MAX_DEBUGGED = 4;
const MAX_FRAMES = 12;
const GDB_INSTALL = 'apt-get install gdb';

/** The signal CTest's words for a crash name (`Exception: SegFault` is SIGSEGV), with its meaning. */
export function signalOf(words: string): string | undefined {
  return SIGNALS.find(([re]) => re.test(words))?.[1];
}

/**
 * What a GoogleTest case printed before the program stopped: the transcript from its own
 * `[ RUN      ]` line on, that line left out. The whole text when the case is unknown; the cases
 * that passed before it tell a fixer nothing.
 */
export function caseOutput(trace: string, gtest: string | undefined): string {
  if (!gtest) return trace.trim();
  const marker = `[ RUN      ] ${gtest}`;
  const at = trace.lastIndexOf(marker);
  if (at < 0) return trace.trim();
  return trace.slice(at + marker.length).trim();
}

/** A backtrace's frames with the source line each stopped on, innermost first. */
async function framesText(root: string, frames: readonly BacktraceFrame[]): Promise<string[]> {
  const files = new Map<string, string[]>();
  const out: string[] = [];
  for (const [i, f] of frames.slice(0, MAX_FRAMES).entries()) {
    if (!files.has(f.file))
      files.set(f.file, ((await readFile(join(root, f.file), 'utf8').catch(() => '')) || '').split('\n'));
    const source = files.get(f.file)![f.line - 1]?.trim();
    out.push(`  #${i} ${f.fn} at ${f.file}:${f.line}${source ? `:  ${source}` : ''}`);
  }
  return out;
}

/**
 * The evidence of a crashed test: the signal, the test and GoogleTest case that was running, what
 * that case printed, and the project frames of a debugger's backtrace of the crash run again (or
 * why there is none). The transcript of the cases before it is left out: it is all banners.
 */
export async function crashEvidence(
  t: TestResult,
  root: string,
  backtraces: CrashBacktraces,
  debug: boolean,
): Promise<string> {
  const d = (t.details ?? {}) as { gtest?: string; ctest?: string };
  const words = d.ctest ?? t.message ?? 'crashed';
  const signal = signalOf(words);
  const lines = [`${t.id} crashed: ${words.replace(/^crashed: /, '')}${signal ? ` (${signal})` : ''}`];
  lines.push(
    d.gtest
      ? `The program was running the GoogleTest case ${d.gtest} when it stopped; the cases after it did not run.`
      : `The program was running the test ${t.id} when it stopped.`,
  );
  const own = caseOutput(t.trace ?? '', d.gtest);
  lines.push('', `What ${d.gtest ?? t.id} printed before the crash:`, own ? own : '  (nothing)');
  const db = debug ? await readCompileDb(root) : undefined;
  const frames = db ? await crashBacktrace(root, db.buildDir, t.id, backtraces) : undefined;
  lines.push('');
  if (frames?.length)
    lines.push(
      "Backtrace of the crash (gdb, the test run again alone; the project's frames, innermost first):",
      ...(await framesText(root, frames)),
    );
  else
    lines.push(
      !debug
        ? `Backtrace: none (only ${MAX_DEBUGGED} crashed programs are run again under the debugger per run)`
        : !db
          ? 'Backtrace: none (no compile_commands.json in a build folder: the test program was not found)'
          : `Backtrace: none (gdb is not installed, or the test did not crash again under it; install gdb: ${GDB_INSTALL})`,
    );
  return lines.join('\n');
}
