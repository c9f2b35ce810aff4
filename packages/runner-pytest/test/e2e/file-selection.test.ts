import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunResultSchema, type RunResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function run(extra: { selection?: string[]; exclude?: string[] }): Promise<RunResult> {
  const root = await mkdtemp(join(tmpdir(), 'suture-pytest-files-'));
  const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
  temps.push(root, workDir);
  await cp(join(here, 'interact'), root, { recursive: true });
  return RunResultSchema.parse(
    await pytest().run({
      root,
      workDir,
      timeoutMs: 120_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...extra,
    }),
  );
}

const ids = (r: RunResult): string[] => r.tests.map((t) => t.id).sort();

describe('a selection of whole test files, and files left out of a whole run, on real pytest', () => {
  it('declares it can select files', () => {
    expect(pytest().supportsFileSelection).toBe(true);
  });

  it('runs every test of a selected file', async () => {
    expect(ids(await run({ selection: ['tests/test_add.py'] }))).toEqual([
      'tests/test_add.py::test_add',
      'tests/test_add.py::test_add_zero',
    ]);
  });

  it('leaves the excluded files out of a run of the whole suite', async () => {
    const rest = await run({ exclude: ['tests/test_add.py'] });
    expect(ids(rest)).toEqual(['tests/test_a_double.py::test_double']);
    expect(rest.command).toContain('--ignore=tests/test_add.py');
  });
});
