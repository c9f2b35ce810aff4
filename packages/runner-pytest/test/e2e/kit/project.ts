import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunResultSchema, type Logger, type RunResult, type Runner, type TestResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';

const temps: string[] = [];

/** A fresh temporary folder, removed by `cleanUp`. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-pytest-${prefix}-`));
  temps.push(dir);
  return dir;
}

/** A copy of a fixture project (a folder beside the calling test file). */
export async function copyOf(folder: string, name: string): Promise<string> {
  const dir = await tempDir(name);
  await cp(join(folder, name), dir, { recursive: true });
  return dir;
}

export async function cleanUp(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

export interface RunOptions {
  selection?: string[];
  timeoutMs?: number;
  onTestResult?: (test: TestResult) => void;
  logger?: Logger;
}

/** One run of the runner over `root`, its result parsed by the contract's schema. */
export async function runIn(runner: Runner, root: string, options: RunOptions = {}): Promise<RunResult> {
  return RunResultSchema.parse(
    await runner.run({
      root,
      workDir: await tempDir('work'),
      timeoutMs: options.timeoutMs ?? 600_000,
      signal: new AbortController().signal,
      logger: options.logger ?? silentLogger,
      ...(options.selection ? { selection: options.selection } : {}),
      ...(options.onTestResult ? { onTestResult: options.onTestResult } : {}),
    }),
  );
}

/** A logger that keeps its warnings. */
export function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { ...silentLogger, warnings, warn: (m: string) => void warnings.push(m) };
}

export function statusById(result: RunResult): Record<string, string> {
  return Object.fromEntries(result.tests.map((t) => [t.id, t.status]));
}

/** Runs a command to its end, whatever its exit code; rejects only when it cannot start. */
export function exec(
  file: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { ...options, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}
