import { access, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult, TestResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, run, tempDir } from './support.js';

afterAll(cleanup);

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

describe('the CTest runner on entries and GoogleTest cases of every shape', () => {
  let root: string;
  let result: RunResult;
  const streamed: TestResult[] = [];
  /** At each word that a test failed: how many failing results had streamed by then. */
  const hints: number[] = [];
  let tests: Record<string, TestResult>;
  beforeAll(async () => {
    root = await copy('native');
    result = await run(root, {
      onTestResult: (t) => {
        // the first result reported lets the binary's last case pass: it waits for this file
        if (streamed.length === 0) void writeFile(join(root, 'live.marker'), t.id);
        streamed.push(t);
      },
      onFailing: () => hints.push(streamed.filter((t) => t.status === 'failed').length),
    });
    tests = Object.fromEntries(result.tests.map((t) => [t.id, t]));
  }, 600_000);

  it('counts every GoogleTest case of a whole binary, passing ones too, under an entry name holding ::', () => {
    expect(Object.fromEntries(result.tests.map((t) => [t.id, t.status]))).toEqual({
      'Disc.Passes': 'passed',
      'Nums/Param.IsEven/2': 'passed',
      'Nums/Param.IsEven/3': 'failed',
      'Typed.IsSmall<int>': 'failed',
      'Typed.IsSmall<char>': 'passed',
      'lib::test::Whole.Passes': 'passed',
      'lib::test::Whole.Fails': 'failed',
      'lib::test::Vals/WParam.IsOdd/0': 'passed',
      'lib::test::Vals/WParam.IsOdd/1': 'failed',
      'lib::test::WTyped/0.HasSize': 'passed',
      'lib::test::WTyped/1.HasSize': 'passed',
      'lib::test::Live.SeesAnEarlierResult': 'passed',
      'lib::test::Whole.DISABLED_Later': 'skipped',
      'plain check.v1 [fast]': 'passed',
    });
    expect(result.status).toBe('failed');
  });

  it('locates every GoogleTest case at its TEST line, and a failure at its assertion', () => {
    expect(tests['lib::test::Whole.Passes']).toMatchObject({ file: 'tests/whole.cpp', line: 6 });
    expect(tests['lib::test::WTyped/1.HasSize']).toMatchObject({ file: 'tests/whole.cpp', line: 17 });
    expect(tests['lib::test::Whole.Fails']).toMatchObject({
      file: 'tests/whole.cpp',
      line: 7,
      message: expect.stringMatching(/Which is: 4\n {2}5\narithmetic/),
      details: { entry: 'lib::test', gtest: 'Whole.Fails', failureFile: 'tests/whole.cpp', failureLine: 7 },
    });
    expect(tests['Typed.IsSmall<int>']).toMatchObject({
      file: 'tests/discovered.cpp',
      line: 13,
      details: { gtest: 'Typed/0.IsSmall' },
    });
  });

  it('reports each result while CTest still runs, the same results it returns', () => {
    expect(tests['lib::test::Live.SeesAnEarlierResult']!.status).toBe('passed');
    expect(streamed.map((t) => t.id).sort()).toEqual(result.tests.map((t) => t.id).sort());
    expect(streamed.find((t) => t.id === 'lib::test::Whole.Fails')).toEqual(tests['lib::test::Whole.Fails']);
  });

  it('says a test failed as soon as CTest or GoogleTest prints it, before any failing result is ready', () => {
    expect(hints.length).toBeGreaterThan(0);
    expect(hints[0]).toBe(0);
  });

  it('re-runs exactly the selected entries and cases, whatever their names hold, with the same results', async () => {
    const ids = [
      'lib::test::Vals/WParam.IsOdd/1',
      'lib::test::WTyped/0.HasSize',
      'Typed.IsSmall<int>',
      'Nums/Param.IsEven/3',
      'plain check.v1 [fast]',
    ];
    const again = await run(root, { selection: ids });
    expect(again.selected).toBe(true);
    expect(again.tests.map((t) => t.id).sort()).toEqual([...ids].sort());
    const same = (t: TestResult) => ({
      status: t.status,
      file: t.file,
      line: t.line,
      message: t.message,
      details: t.details,
    });
    for (const t of again.tests) expect(same(t)).toEqual(same(tests[t.id]!));
  });

  it('re-runs a whole entry by its name: every case, and the entry itself from them', async () => {
    const again = await run(root, { selection: ['lib::test'] });
    expect(again.tests.filter((t) => t.id.startsWith('lib::test::'))).toHaveLength(8);
    expect(again.tests.find((t) => t.id === 'lib::test')).toMatchObject({ status: 'failed' });
  });

  it('says which selected id names no CTest entry', async () => {
    const again = await run(root, { selection: ['lib::nope::Whole.Passes'] });
    expect(again.status).toBe('error');
    expect(again.error).toBe('no CTest entry matches the selection: lib::nope::Whole.Passes');
  });

  it('on an unchanged tree neither configures nor lists a test binary again', async () => {
    const cache = join(root, 'build-suture/CMakeCache.txt');
    const before = (await stat(cache)).mtimeMs;
    expect(await exists(join(root, 'build-suture/.suture-gtest-lists.json'))).toBe(true);
    const workDir = await tempDir('warm');
    const warm = await run(root, { workDir, runner: ctest({ parallel: 2 }) });
    const where = (r: RunResult) =>
      Object.fromEntries(r.tests.map((t) => [t.id, [t.status, t.file, t.line]]));
    expect(where(warm)).toEqual(where(result));
    expect((await stat(cache)).mtimeMs).toBe(before);
    expect(await exists(join(workDir, 'gtest-list'))).toBe(false);
  });
});
