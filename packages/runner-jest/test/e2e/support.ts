import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunResultSchema, type RunResult, type Runner, type TestResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import jest, { type JestOptions } from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Copies live under the repository so that `jest` and `ts-jest` resolve from its node_modules. */
export const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
const temps: string[] = [];

export async function copy(name: string): Promise<string> {
  await mkdir(TMP, { recursive: true });
  const dir = await mkdtemp(join(TMP, `jest-${name}-`));
  temps.push(dir);
  await cp(join(here, name), dir, { recursive: true });
  return dir;
}

export async function run(
  root: string,
  extra: {
    selection?: string[];
    /** Test files a run of the whole suite leaves out. */
    exclude?: string[];
    timeoutMs?: number;
    options?: JestOptions;
    /** A runner made once, for runs that build on what an earlier run measured. */
    runner?: Runner;
    onTestResult?: (test: TestResult) => void;
  } = {},
): Promise<RunResult> {
  const workDir = await mkdtemp(join(TMP, 'jest-work-'));
  temps.push(workDir);
  return RunResultSchema.parse(
    await (extra.runner ?? jest(extra.options ?? {})).run({
      root,
      workDir,
      timeoutMs: extra.timeoutMs ?? 120_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(extra.selection ? { selection: extra.selection } : {}),
      ...(extra.exclude ? { exclude: extra.exclude } : {}),
      ...(extra.onTestResult ? { onTestResult: extra.onTestResult } : {}),
    }),
  );
}

export const project = (root: string) => ({ name: 't', root, scopeDepth: 3, logger: silentLogger });

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
