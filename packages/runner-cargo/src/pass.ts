import { runProcess, type ProcessResult } from '@suture/core';
import type { CargoFold, Section } from './libtest.js';
import { testId } from './libtest.js';

/** One `cargo test` invocation: cargo's arguments and libtest's (after `--`). */
export interface PassPlan {
  cargoArgs: string[];
  testArgs: string[];
  /** Planned for what an earlier pass did not reach after the watchdog stopped it. */
  left?: boolean;
}

export interface PassInput {
  cargo: string;
  root: string;
  env: Record<string, string>;
  limitMs: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** Why the watchdog stopped a binary: the section it was in and the test it names, when it can. */
export interface Stall {
  section: Section;
  test?: string;
}

export interface PassResult {
  proc: ProcessResult;
  stall?: Stall;
}

const TICK_MS = 250;

/** The command line of a pass, as cargo gets it. */
export function passArgs(plan: PassPlan): string[] {
  return [
    'test',
    '--no-fail-fast',
    '--message-format=json',
    '--color',
    'never',
    ...plan.cargoArgs,
    '--',
    ...plan.testArgs,
  ];
}

/**
 * Runs one `cargo test`, fed to the fold as it prints. A watchdog stops it when a test binary
 * has reported no result for the per-test limit: the stuck test is the one libtest named as
 * running past 60 s, or the open line of a one-thread run.
 */
export async function runPass(input: PassInput, plan: PassPlan, fold: CargoFold): Promise<PassResult> {
  const local = new AbortController();
  let stall: Stall | undefined;
  const timer = setInterval(() => {
    const s = fold.section;
    if (!s || s.announced === undefined || stall) return;
    if (Date.now() - fold.lastProgress < input.limitMs) return;
    const named = fold.pending ?? [...fold.overtime].find((id) => !s.reported.has(id));
    stall = { section: s, ...(named ? { test: named } : {}) };
    local.abort();
  }, TICK_MS);
  try {
    // cargo names each test binary on stderr and libtest prints its results on stdout: read apart,
    // two pipes can deliver a binary's results before the line that opens its section, so both
    // go through one pipe, in the order they were written
    const proc = await runProcess('sh', ['-c', 'exec "$0" "$@" 2>&1', input.cargo, ...passArgs(plan)], {
      cwd: input.root,
      env: input.env,
      timeoutMs: input.timeoutMs,
      signal: AbortSignal.any([input.signal, local.signal]),
      onOutput: (chunk) => fold.write(chunk),
    });
    fold.end();
    if (stall) fold.interrupt();
    // the report names the cargo command, not the shell that joins its output
    const command = proc.command.slice(proc.command.indexOf(' ', proc.command.indexOf("2>&1'")) + 1);
    return { proc: { ...proc, command }, ...(stall ? { stall } : {}) };
  } finally {
    clearInterval(timer);
  }
}

/** The names libtest lists for the binaries of `cargoArgs` (`--list --format terse`), by section id. */
export async function listTests(input: PassInput, cargoArgs: string[], section: Section): Promise<string[]> {
  const proc = await runProcess(
    input.cargo,
    ['test', '--color', 'never', ...cargoArgs, '--', '--list', '--format', 'terse'],
    { cwd: input.root, env: input.env, timeoutMs: Math.max(1, input.timeoutMs), signal: input.signal },
  );
  return [...proc.output.matchAll(/^(.+): test$/gm)].map((m) => testId(section, m[1]!));
}
