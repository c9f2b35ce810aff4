import { describe, expect, it } from 'vitest';
import { RunResultSchema } from '../api/contracts/run-result.js';
import { PassingTests } from './passing-tests.js';

const run = (tests: Array<[string, 'passed' | 'failed']>) =>
  RunResultSchema.parse({
    status: 'failed',
    tests: tests.map(([id, status]) => ({ id, name: id, status })),
    command: 'pytest',
    exitCode: 1,
    durationMs: 1,
  });

describe('PassingTests', () => {
  it('keeps the passing tests of each file per project, and forgets a test that fails in a later run', () => {
    const passing = new PassingTests();
    const fileOf = (t: { id: string }): string => t.id.split('::')[0]!;
    passing.record(
      '/p',
      run([
        ['a.py::t1', 'passed'],
        ['a.py::t2', 'failed'],
        ['b.py::t3', 'passed'],
      ]),
      fileOf,
    );
    expect(passing.of('/p', 'a.py')).toEqual(['a.py::t1']);
    expect(passing.of('/q', 'a.py')).toEqual([]);
    // a re-run of selected tests
    passing.record(
      '/p',
      run([
        ['a.py::t1', 'failed'],
        ['a.py::t2', 'passed'],
      ]),
      fileOf,
    );
    expect(passing.of('/p', 'a.py')).toEqual(['a.py::t2']);
    expect(passing.of('/p', 'b.py')).toEqual(['b.py::t3']);
    expect(passing.all('/p')).toEqual(['a.py::t2', 'b.py::t3']);
  });
});
