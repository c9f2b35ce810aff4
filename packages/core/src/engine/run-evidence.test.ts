import { describe, expect, it } from 'vitest';
import { RunResultSchema, type RunResultInput, type TestResult } from '../api/contracts/run-result.js';
import { correctStatus, notHealedReason } from './run-evidence.js';

const run = (over: Partial<RunResultInput>): ReturnType<typeof RunResultSchema.parse> =>
  RunResultSchema.parse({ status: 'passed', tests: [], exitCode: 0, command: 'x', durationMs: 1, ...over });
const ok = (id: string): TestResult => ({ id, status: 'passed' });

describe("a runner's passed", () => {
  it('stands when every result passed or skipped and all it collected reported', () => {
    expect(
      correctStatus(run({ tests: [ok('a'), { id: 'b', status: 'skipped' }], collected: 2 })),
    ).toBeUndefined();
    // a runner that does not count what it collected is checked by its results alone
    expect(correctStatus(run({ tests: [ok('a')] }))).toBeUndefined();
  });

  it.each(['failed', 'error', 'timeout', 'crashed'] as const)(
    'fails with a %s test in the list',
    (status) => {
      expect(correctStatus(run({ tests: [ok('a'), { id: 'b', status }] }))).toEqual({
        from: 'passed',
        status: 'failed',
        reason: `the runner said the run passed, but its results hold 1 failing test(s): b (${status})`,
      });
    },
  );

  it('fails with fewer results than it collected, a test reported twice counting once', () => {
    const c = correctStatus(run({ tests: [ok('a'), ok('a')], collected: 2 }));
    expect(c?.reason).toContain('reported 1 result(s) of the 2 test(s) it collected');
  });

  it('fails with no result for a selection it honoured', () => {
    expect(correctStatus(run({ selected: true }), ['a'])?.reason).toContain(
      'no result for the 1 test(s) it was asked to run',
    );
  });

  it('is the only status corrected: a failed run stays failed', () => {
    expect(correctStatus(run({ status: 'failed', tests: [ok('a')] }))).toBeUndefined();
  });
});

describe('a test of a failure that did not pass', () => {
  it('is not healed by a skip or an xfail, and says which', () => {
    expect(notHealedReason({ id: 'a', status: 'skipped', message: 'xfail' })).toBe(
      'ended xfailed (expected to fail): a test that failed is healed only when it runs and passes',
    );
    expect(notHealedReason({ id: 'a', status: 'skipped', message: 'Skipped: later' })).toBe(
      'was skipped (Skipped: later): a test that failed is healed only when it runs and passes',
    );
    expect(notHealedReason(undefined)).toBe('did not run');
    expect(notHealedReason({ id: 'a', status: 'failed', message: 'assert 1 == 2' })).toBe('assert 1 == 2');
  });
});
