import type { Failure, RunResult, TestResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

describe('the CTest runner on test programs that abort', () => {
  let root: string;
  let result: RunResult;
  let tests: Record<string, TestResult>;
  let failures: Record<string, Failure>;
  beforeAll(async () => {
    root = await copy('aborts');
    result = await run(root);
    tests = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    const found = await ctest().analyzer!().analyze(result, project(root));
    failures = Object.fromEntries(found.flatMap((f) => f.tests.map((t) => [t, f as Failure])));
  }, 300_000);

  it('reports a plain C program stopped by assert() as a crash at the assertion', () => {
    expect(tests['stack_test']).toMatchObject({
      status: 'crashed',
      message: 'crashed: Assertion `*size > 0 && "pop from an empty stack"\' failed',
      details: { ctest: 'Subprocess aborted', frame: { file: 'src/stack.c', line: 5, fn: 'stack_pop' } },
    });
    // the same assert() in stack_pop stops three test programs: one root cause, one group
    expect(failures['stack_test']).toMatchObject({
      kind: 'crash',
      title: expect.stringMatching(/ crashed in stack_pop$/),
      tests: expect.arrayContaining(['stack_test', 'Guards.AssertsInCpp', 'pool_test::Pool.Drains']),
      location: { file: 'src/stack.c', line: 5, symbol: 'stack_pop' },
    });
  });

  it('locates a GoogleTest case stopped by assert() in the code under test at the assertion', () => {
    expect(tests['Guards.AssertsInCpp']).toMatchObject({
      status: 'crashed',
      file: 'tests/guards_test.cpp',
      details: { gtest: 'Guards.AssertsInCpp', frame: { file: 'src/stack.c', line: 5 } },
    });
    expect(failures['Guards.AssertsInCpp']).toMatchObject({
      kind: 'crash',
      location: { file: 'src/stack.c', line: 5, symbol: 'stack_pop' },
    });
  });

  it('reports std::abort(), which prints nothing, as a crash at the TEST', () => {
    expect(tests['Guards.Aborts']).toMatchObject({
      status: 'crashed',
      message: 'crashed: Subprocess aborted',
      file: 'tests/guards_test.cpp',
      line: 19,
    });
    expect(tests['Guards.Aborts']!.details!.frame).toBeUndefined();
    expect(failures['Guards.Aborts']).toMatchObject({
      kind: 'crash',
      location: { file: 'tests/guards_test.cpp', line: 19 },
    });
  });

  it('reports std::terminate from a noexcept function and from a thread as crashes naming the exception', () => {
    expect(tests['Guards.Terminates']).toMatchObject({
      status: 'crashed',
      message: 'crashed: terminate called after throwing std::runtime_error: zero is not allowed',
    });
    expect(tests['Guards.ThreadThrows']).toMatchObject({
      status: 'crashed',
      message: 'crashed: terminate called after throwing std::logic_error: worker failed',
    });
    expect(failures['Guards.Terminates']!.kind).toBe('crash');
    expect(failures['Guards.ThreadThrows']!.kind).toBe('crash');
  });

  it('reports the case a whole GoogleTest binary was running when an assertion stopped it as the crash, and the cases before it', () => {
    expect(tests['pool_test::Pool.Drains']).toMatchObject({
      status: 'crashed',
      message: expect.stringMatching(/^crashed: Assertion `.*' failed$/),
      file: 'tests/pool_test.cpp',
      line: 6,
      details: { entry: 'pool_test', gtest: 'Pool.Drains', frame: { file: 'src/stack.c', line: 5 } },
    });
    expect(tests['pool_test::Pool.Fills']).toMatchObject({ status: 'passed', line: 4 });
    expect(tests['pool_test']).toBeUndefined();
  });

  it('leaves passing tests alone and re-runs a crashed test the same way', async () => {
    expect(tests['Guards.Passes']!.status).toBe('passed');
    const again = await run(root, {
      selection: ['stack_test', 'Guards.AssertsInCpp', 'pool_test::Pool.Drains'],
    });
    const same = (t: TestResult) => ({ status: t.status, message: t.message, details: t.details });
    for (const t of again.tests) expect(same(t)).toEqual(same(tests[t.id]!));
    expect(again.tests.map((t) => t.id).sort()).toEqual([
      'Guards.AssertsInCpp',
      'pool_test::Pool.Drains',
      'stack_test',
    ]);
  });
});
