import { describe, expect, it } from 'vitest';
import {
  familyOf,
  HangMemory,
  remember,
  siblingLimit,
  testLimit,
  timeoutMessage,
  type DurationMemory,
} from './limits.js';
import { CtestOptionsSchema } from './options.js';

const options = CtestOptionsSchema.parse({});

describe('testLimit', () => {
  it('is testTimeoutMs in a full run, and none when it is 0', () => {
    const memory: DurationMemory = new Map([['T.A', 100]]);
    expect(testLimit(options, 'T.A', false, memory)).toEqual({ ms: 30_000, source: 'option' });
    expect(testLimit(CtestOptionsSchema.parse({ testTimeoutMs: 0 }), 'T.A', true, memory).ms).toBeNull();
  });

  it('gives a re-run 5x the measured duration, at least rerunTimeoutMs, at most testTimeoutMs', () => {
    const memory: DurationMemory = new Map([
      ['fast', 100],
      ['slow', 4000],
      ['slower', 9000],
    ]);
    expect(testLimit(options, 'fast', true, memory)).toEqual({
      ms: 10_000,
      source: 'derived',
      measuredMs: 100,
    });
    expect(testLimit(options, 'slow', true, memory)).toEqual({
      ms: 20_000,
      source: 'derived',
      measuredMs: 4000,
    });
    expect(testLimit(options, 'slower', true, memory)).toEqual({ ms: 30_000, source: 'option' });
    expect(testLimit(options, 'unmeasured', true, memory)).toEqual({ ms: 30_000, source: 'option' });
  });

  it('gives a re-run of a test a limit cut short before, never measured, rerunTimeoutMs', () => {
    const memory: DurationMemory = new Map([['hung', null]]);
    expect(testLimit(options, 'hung', true, memory)).toEqual({ ms: 10_000, source: 'cut' });
    // the whole run of the suite still gives it the whole limit
    expect(testLimit(options, 'hung', false, memory)).toEqual({ ms: 30_000, source: 'option' });
    const low = CtestOptionsSchema.parse({ testTimeoutMs: 5000 });
    expect(testLimit(low, 'hung', true, memory)).toEqual({ ms: 5000, source: 'option' });
  });
});

describe('remember', () => {
  it('keeps what a run measured, not the time of a test a limit cut short', () => {
    const memory: DurationMemory = new Map([['hung', 50]]);
    remember(memory, [
      { id: 'ok', status: 'passed', durationMs: 12 },
      { id: 'hung', status: 'timeout', durationMs: 30_000 },
      { id: 'bad', status: 'failed', durationMs: 7 },
      { id: 'new-hang', status: 'timeout', durationMs: 30_000 },
    ]);
    expect(Object.fromEntries(memory)).toEqual({ ok: 12, hung: 50, 'new-hang': null });
    // a later run that measures it replaces the mark
    remember(memory, [{ id: 'new-hang', status: 'passed', durationMs: 40 }]);
    expect(memory.get('new-hang')).toBe(40);
  });

  it('gives the validation of a test that failed fast the limit its failing run had, not 5x the time it took to fail', () => {
    const memory: DurationMemory = new Map();
    remember(memory, [{ id: 'slow-once-fixed', status: 'failed', durationMs: 210 }]);
    expect(testLimit(options, 'slow-once-fixed', true, memory)).toEqual({ ms: 30_000, source: 'option' });
    // a pass measured earlier still sets the limit of a later re-run after it fails
    remember(memory, [{ id: 'was-passing', status: 'passed', durationMs: 4_000 }]);
    remember(memory, [{ id: 'was-passing', status: 'failed', durationMs: 5 }]);
    expect(testLimit(options, 'was-passing', true, memory)).toMatchObject({ ms: 20_000, measuredMs: 4_000 });
  });
});

describe('timeoutMessage', () => {
  it('names the option to raise for each source of a limit', () => {
    expect(timeoutMessage(options, { ms: 30_000, source: 'option' }, 'S.C')).toMatch(
      /^ran past the per-test limit of 30 s in the GoogleTest case S\.C; .*"testTimeoutMs"/,
    );
    expect(timeoutMessage(options, { ms: 10_000, source: 'derived', measuredMs: 20 })).toMatch(
      /^ran past 10 s, .*earlier duration of 0\.02 s.*raise the runner option "rerunTimeoutMs"$/,
    );
    expect(timeoutMessage(options, { ms: 10_000, source: 'cut' }, 'S.C')).toMatch(
      /^ran past 10 s in the GoogleTest case S\.C, the limit of this re-run of a test that ran past its limit before .*raise the runner option "rerunTimeoutMs"$/,
    );
    expect(timeoutMessage(options, { ms: 2000, source: 'declared' })).toMatch(
      /^ran past 2 s, the TIMEOUT property/,
    );
  });
});

describe('the limit of the siblings of a test that hung', () => {
  const option = { ms: 30_000, source: 'option' } as const;

  it('groups the values of a TEST_P as one test, and every test of a binary', () => {
    expect(familyOf('/b/cases', 'Nine/Hangs.Forever/3')).toEqual(
      familyOf('/b/cases', 'Nine/Hangs.Forever/0'),
    );
    expect(familyOf('/b/cases', 'Suite.Name')).not.toEqual(familyOf('/b/cases', 'Suite.Other'));
    expect(familyOf('/b/cases', 'Nine/Hangs.Forever/3')).not.toEqual(
      familyOf('/b/other', 'Nine/Hangs.Forever/3'),
    );
  });

  it('gives rerunTimeoutMs to a test of the family that starts after one hung, and not to one that ran beside it', () => {
    const hangs = new HangMemory();
    hangs.record('Nine/Hangs.Forever/0', familyOf('/b/cases', 'Nine/Hangs.Forever/0'), 1000);
    const value = familyOf('/b/cases', 'Nine/Hangs.Forever/1');
    expect(siblingLimit(options, option, hangs.before(value, 1500))).toEqual({
      ms: 10_000,
      source: 'sibling',
      after: { id: 'Nine/Hangs.Forever/0', scope: 'test' },
    });
    // started before the first one hung: it keeps its limit
    expect(siblingLimit(options, option, hangs.before(value, 500))).toEqual(option);
    expect(hangs.before(familyOf('/b/cases', 'Other.Test'), 1500)).toEqual({
      id: 'Nine/Hangs.Forever/0',
      scope: 'binary',
    });
    expect(hangs.before(familyOf('/b/other', 'Other.Test'), 1500)).toBeUndefined();
    // a declared limit, one already short, and rerunTimeoutMs at the limit are left as they are
    const after = hangs.before(value, 1500);
    expect(siblingLimit(options, { ms: 2000, source: 'declared' }, after)).toEqual({
      ms: 2000,
      source: 'declared',
    });
    expect(siblingLimit(options, { ms: 10_000, source: 'cut' }, after)).toEqual({
      ms: 10_000,
      source: 'cut',
    });
    const even = CtestOptionsSchema.parse({ testTimeoutMs: 10_000, rerunTimeoutMs: 10_000 });
    expect(siblingLimit(even, { ms: 10_000, source: 'option' }, after)).toEqual({
      ms: 10_000,
      source: 'option',
    });
  });

  it('names the test that hung first and the option to raise', () => {
    expect(
      timeoutMessage(
        options,
        { ms: 10_000, source: 'sibling', after: { id: 'mixed::P/S.C/0', scope: 'binary' } },
        'T.X',
      ),
    ).toBe(
      'ran past 10 s in the GoogleTest case T.X, the limit a test gets once another test of the same binary, mixed::P/S.C/0, ran past its limit first in this run (the runner option "rerunTimeoutMs"); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs" (10000 now; at "testTimeoutMs" = 30000 or above, every test gets the whole limit)',
    );
  });
});
