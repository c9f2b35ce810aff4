import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RunResultSchema } from '@suture/core';
import { copyFixture, diffSnapshots, scriptRunner, silentLogger, snapshotTree } from '@suture/core/testing';
import { expect, it } from 'vitest';
import smoke, { exportedFunctions } from '../src/index.js';

const fixture = fileURLToPath(new URL('./fixtures/lib', import.meta.url));
const ctx = (root: string) => ({ signal: new AbortController().signal, logger: silentLogger, root });
const request = (root: string, existingTests: string[] = []) => ({
  project: { name: 'lib', root, language: 'javascript' },
  goal: 'tests',
  inputs: ['src/math.mjs', 'src/greet.mjs', 'src/constants.mjs'],
  existingTests,
  options: {},
});

it('finds the functions a module exports', () => {
  expect(
    exportedFunctions('export function a() {}\nexport const b = (x) => x;\nexport const c = 1;\n'),
  ).toEqual(['a', 'b']);
});

it('writes nothing itself, and its tests pass when suture runs them with the real runner', async () => {
  const copy = await copyFixture(fixture);
  try {
    const before = await snapshotTree(copy.root, []);
    const result = await smoke().generate(request(copy.root), ctx(copy.root));
    expect(diffSnapshots(before, await snapshotTree(copy.root, []))).toEqual([]);
    expect(result.plan.tests).toEqual([
      {
        file: 'tests/math.smoke.test.mjs',
        test: 'tests/math.smoke.test.mjs',
        covers: 'src/math.mjs: add, twice',
      },
      {
        file: 'tests/greet.smoke.test.mjs',
        test: 'tests/greet.smoke.test.mjs',
        covers: 'src/greet.mjs: greet',
      },
    ]);
    // what the engine does with the files: write them, then run them
    for (const f of result.files) {
      await mkdir(dirname(join(copy.root, f.file)), { recursive: true });
      await writeFile(join(copy.root, f.file), f.content);
    }
    const run = RunResultSchema.parse(
      await scriptRunner().run({
        root: copy.root,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        logger: silentLogger,
        workDir: await mkdtemp(join(tmpdir(), 'smoke-work-')),
      }),
    );
    expect(run.tests.map((t) => [t.id, t.status])).toEqual([
      ['tests/greet.smoke.test.mjs', 'passed'],
      ['tests/math.smoke.test.mjs', 'passed'],
    ]);
  } finally {
    await copy.dispose();
  }
});

it('adds no test where one exists', async () => {
  const result = await smoke().generate(request(fixture, ['tests/math.smoke.test.mjs']), ctx(fixture));
  expect(result.files.map((f) => f.file)).toEqual(['tests/greet.smoke.test.mjs']);
});
