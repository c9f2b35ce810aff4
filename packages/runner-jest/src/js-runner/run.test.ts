import type { TestResult } from '@suture/core';
import { describe, expect, it } from 'vitest';
import { cutShortResult, wantedBy } from './run.js';

const common = { selected: false, command: 'vitest run', durationMs: 1, exitCode: null };
const running = { id: 'a.test.ts::s > hangs', name: 's > hangs', file: 'a.test.ts', line: 4 };
const passed: TestResult = { id: 'a.test.ts::s > ok', name: 's > ok', file: 'a.test.ts', status: 'passed' };
const base = { aborted: false, timedOut: false, stopped: 0, timeoutMs: 1000 };

describe('the result of a run cut short', () => {
  it('at the wall-clock limit, names the test that was running and keeps it as a timeout at its line', () => {
    const r = cutShortResult(common, [passed], [], { ...base, timedOut: true }, running);
    expect(r.error).toBe(
      `killed at the wall-clock limit of 1000 ms (the project's "timeoutMs") while running ${running.id}`,
    );
    expect(r.tests).toEqual([
      passed,
      {
        ...running,
        status: 'timeout',
        message: `killed at the wall-clock limit of 1000 ms (the project's "timeoutMs") while this test was running`,
      },
    ]);
    expect(r.status).toBe('timeout');
  });

  it('does not add the running test twice when the run reported it already', () => {
    const reported: TestResult = { ...running, status: 'timeout' };
    expect(cutShortResult(common, [reported], [], { ...base, aborted: true }, running).tests).toEqual([
      reported,
    ]);
  });

  it('after too many tests stopped, blames no running test: the rest was not run again on purpose', () => {
    const r = cutShortResult(common, [passed], [], { ...base, cut: 'count', stopped: 5 }, running);
    expect(r.error).toBe('5 tests were stopped at their limits; the rest of the suite was not run again');
    expect(r.tests).toEqual([passed]);
  });
});

describe('which results a run reports', () => {
  const skipped = (id: string): TestResult => ({ id, name: id, status: 'skipped' });
  const fileOf = (id: string): string => id.split('::')[0]!;

  it('all of them without a selection', () => {
    expect(wantedBy(undefined, fileOf)(skipped('a.ts::x'))).toBe(true);
  });

  it('in a selection, leaves out the tests the tool skipped for not being selected, never a selected one', () => {
    const wanted = wantedBy(['a.ts::x', 'b.ts'], fileOf);
    expect(wanted(skipped('a.ts::x'))).toBe(true);
    expect(wanted(skipped('b.ts::y'))).toBe(true);
    expect(wanted(skipped('a.ts::z'))).toBe(false);
    expect(wanted({ ...skipped('a.ts::z'), status: 'failed' })).toBe(true);
  });
});
