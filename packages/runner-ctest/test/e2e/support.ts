import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HealConfigSchema,
  RunResultSchema,
  type Fixer,
  type GateReport,
  type Reporter,
  type RunResult,
  type Runner,
  type TestResult,
} from '@suture/core';
import { runGate, type GateOptions } from '@suture/core/internal';
import { silentLogger } from '@suture/core/testing';
import ctest from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];

export async function copy(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-ctest-${name}-`));
  temps.push(dir);
  await cp(join(here, name), dir, { recursive: true });
  return dir;
}

export interface RunExtra {
  selection?: string[];
  timeoutMs?: number;
  /** The runner instance to use (its options, its memory of durations); default ctest({ parallel: 2 }). */
  runner?: Runner;
  onTestResult?: (test: TestResult) => void;
  onFailing?: () => void;
  /** The run's scratch folder, when the test looks into it. */
  workDir?: string;
}

export async function run(root: string, extra: RunExtra = {}): Promise<RunResult> {
  const workDir = extra.workDir ?? (await mkdtemp(join(tmpdir(), 'suture-ctest-work-')));
  temps.push(workDir);
  return RunResultSchema.parse(
    await (extra.runner ?? ctest({ parallel: 2 })).run({
      root,
      workDir,
      timeoutMs: extra.timeoutMs ?? 300_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(extra.selection ? { selection: extra.selection } : {}),
      ...(extra.onTestResult ? { onTestResult: extra.onTestResult } : {}),
      ...(extra.onFailing ? { onFailing: extra.onFailing } : {}),
    }),
  );
}

export async function tempDir(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-ctest-${name}-`));
  temps.push(dir);
  return dir;
}

export async function edit(root: string, file: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(root, file), 'utf8');
  if (!text.includes(from)) throw new Error(`${from} not in ${file}`);
  await writeFile(join(root, file), text.replace(from, to));
}

export interface GateExtra {
  mode?: GateOptions['mode'];
  fixers?: Fixer[];
  reporters?: Reporter[];
  /** Heal settings over `flakyReruns: 0`. */
  heal?: Record<string, unknown>;
  /** ctest's parallel option (default 2). */
  parallel?: number;
  name?: string;
  timeoutMs?: number;
  /** ctest's per-test limit (testTimeoutMs), when the default is not wanted. */
  testTimeoutMs?: number;
  workspace?: GateOptions['workspace'];
  sandbox?: GateOptions['sandbox'];
}

/** The gate over one CTest project at `root`, its run folder under `.suture/runs`. */
export async function gate(root: string, extra: GateExtra = {}): Promise<GateReport> {
  return runGate({
    root,
    outputDir: join(root, '.suture/runs'),
    mode: extra.mode ?? 'fix',
    projects: [
      {
        name: extra.name ?? 'calc',
        root,
        runner: ctest({
          parallel: extra.parallel ?? 2,
          ...(extra.testTimeoutMs ? { testTimeoutMs: extra.testTimeoutMs } : {}),
        }),
        analyzer: ctest().analyzer!(),
        timeoutMs: extra.timeoutMs ?? 300_000,
        heal: HealConfigSchema.parse({ flakyReruns: 0, ...extra.heal }),
      },
    ],
    fixers: extra.fixers ?? [],
    reporters: extra.reporters ?? [],
    concurrency: 1,
    logger: silentLogger,
    ...(extra.workspace ? { workspace: extra.workspace } : {}),
    ...(extra.sandbox ? { sandbox: extra.sandbox } : {}),
  });
}

export const project = (root: string) => ({ name: 'calc', root, scopeDepth: 3, logger: silentLogger });

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
