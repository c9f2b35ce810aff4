import { RunResultSchema } from '@suture/core';
import { describe, expect, it } from 'vitest';
import { SeenTests, traceRequest } from './trace-plan.js';

const run = (tests: Array<[string, 'passed' | 'failed' | 'skipped', number]>) =>
  RunResultSchema.parse({
    status: 'failed',
    tests: tests.map(([id, status, durationMs]) => ({ id, name: id, status, durationMs })),
    diagnostics: [],
    exitCode: 1,
    command: 'pytest',
    durationMs: 1,
    outputTail: '',
  });

describe('traceRequest', () => {
  it("takes the group's failing tests, passing neighbours within its time, and other groups' tests along", () => {
    const seen = new SeenTests();
    seen.record(
      '/p',
      run([
        ['tests/test_a.py::test_one[1]', 'failed', 20],
        ['tests/test_a.py::test_one[2]', 'passed', 20],
        ['tests/test_a.py::test_stress', 'passed', 9_000],
        ['tests/test_a.py::test_two', 'passed', 30],
        ['tests/test_b.py::test_three', 'failed', 10],
        ['tests/test_b.py::test_four', 'passed', 10],
        ['tests/test_b.py::test_skip', 'skipped', 0],
      ]),
    );
    expect(traceRequest(['tests/test_a.py::test_one[1]'], '/p', seen, 30_000)).toEqual({
      failing: ['tests/test_a.py::test_one[1]'],
      // the other case of the same function first; a test of 9 s, 45 s traced, left out
      passing: ['tests/test_a.py::test_one[2]', 'tests/test_a.py::test_two', 'tests/test_b.py::test_four'],
      prefetch: ['tests/test_b.py::test_three'],
    });
  });

  it('never traces a test its time limit stopped, in its own group or along with another', () => {
    const seen = new SeenTests();
    const result = run([
      ['tests/test_a.py::test_hangs', 'failed', 60_000],
      ['tests/test_a.py::test_fails', 'failed', 10],
      ['tests/test_a.py::test_ok', 'passed', 10],
    ]);
    result.tests[0]!.status = 'timeout';
    seen.record('/p', result);
    expect(seen.stuck('/p', 'tests/test_a.py::test_hangs')).toBe(true);
    expect(traceRequest(['tests/test_a.py::test_hangs'], '/p', seen, 30_000)).toEqual({
      failing: [],
      passing: [],
      prefetch: [],
    });
    expect(
      traceRequest(['tests/test_a.py::test_hangs', 'tests/test_a.py::test_fails'], '/p', seen, 30_000)
        .failing,
    ).toEqual(['tests/test_a.py::test_fails']);
    expect(traceRequest(['tests/test_a.py::test_fails'], '/p', seen, 30_000).prefetch).toEqual([]);
    // one that ends in a later re-run is traced again
    seen.record('/p', run([['tests/test_a.py::test_hangs', 'failed', 40]]));
    expect(seen.stuck('/p', 'tests/test_a.py::test_hangs')).toBe(false);
  });

  it('forgets a failing test that passes in a later re-run', () => {
    const seen = new SeenTests();
    seen.record('/p', run([['tests/test_a.py::test_one', 'failed', 5]]));
    expect(seen.allFailing('/p')).toEqual(['tests/test_a.py::test_one']);
    seen.record('/p', run([['tests/test_a.py::test_one', 'passed', 5]]));
    expect(seen.allFailing('/p')).toEqual([]);
    expect(seen.passing('/p', 'tests/test_a.py')).toEqual(['tests/test_a.py::test_one']);
    expect(seen.duration('/p', 'tests/test_a.py::test_one')).toBe(5);
  });
});
