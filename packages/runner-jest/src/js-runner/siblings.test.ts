import { describe, expect, it } from 'vitest';
import { stoppedMessage, type Limit } from './limits.js';
import { HangMemory, familyOf, siblingLimit } from './siblings.js';

const whole: Limit = { ms: 30_000, why: 'the default limit' };

describe('the limit of the siblings of a test that ran past its limit', () => {
  it('puts the cases of one test.each in one family, and any two tests of a file in its file', () => {
    const hangs = new HangMemory();
    hangs.record('a.test.js::adds 1', familyOf('/p/a.test.js', undefined, ['calc'], 3), 1000);
    expect(hangs.before(familyOf('/p/a.test.js', undefined, ['calc'], 3), 1000)).toEqual({
      id: 'a.test.js::adds 1',
      scope: 'each',
      count: 1,
    });
    // another test of the file, one whose line is not known, and one in another describe
    for (const family of [
      familyOf('/p/a.test.js', undefined, ['calc'], 9),
      familyOf('/p/a.test.js', undefined, ['calc'], undefined),
      familyOf('/p/a.test.js', undefined, ['other'], 3),
    ])
      expect(hangs.before(family, 2000)).toEqual({ id: 'a.test.js::adds 1', scope: 'file', count: 1 });
    // another file, and the same file in another Jest project
    expect(hangs.before(familyOf('/p/b.test.js', undefined, ['calc'], 3), 2000)).toBeUndefined();
    expect(hangs.before(familyOf('/p/a.test.js', 'web', ['calc'], 3), 2000)).toBeUndefined();
  });

  it('leaves the limit of a test that started before the hang was known: it ran beside it', () => {
    const hangs = new HangMemory();
    const family = familyOf('/p/a.test.js', undefined, [], 3);
    hangs.record('a.test.js::first', family, 1000);
    hangs.record('a.test.js::second', family, 500);
    expect(hangs.before(family, 499)).toBeUndefined();
    expect(hangs.before(family, 999)).toEqual({ id: 'a.test.js::second', scope: 'each', count: 1 });
    // the first recorded stays the one named; a test recorded twice counts once
    hangs.record('a.test.js::first', family, 1200);
    expect(hangs.before(family, 2000)).toEqual({ id: 'a.test.js::first', scope: 'each', count: 2 });
  });

  it('gives a sibling rerunTimeoutMs at most, and leaves a declared timeout and a shorter limit as they are', () => {
    const after = { id: 'a.test.js::adds 1', scope: 'each' as const, count: 1 };
    const short = siblingLimit(whole, after, 10_000, false);
    expect(short).toEqual({
      ms: 10_000,
      why: 'the limit a test gets once another case of the same test.each, a.test.js::adds 1, ran past its limit first in this run: the runner option "rerunTimeoutMs"',
      sibling: { after: 'a.test.js::adds 1', scope: 'each', wholeMs: 30_000, rerunMs: 10_000 },
    });
    expect(stoppedMessage(short)).toMatch(
      /raise the runner option "rerunTimeoutMs" \(10000 now; at 30000 or above, the test gets its whole limit of 30000 ms\)\.$/,
    );
    expect(siblingLimit(whole, after, 10_000, true)).toBe(whole);
    expect(siblingLimit(whole, after, 30_000, false)).toBe(whole);
    expect(siblingLimit(whole, undefined, 10_000, false)).toBe(whole);
    expect(siblingLimit(whole, { ...after, scope: 'file' }, 10_000, false).why).toMatch(
      /once another test of the same file, a\.test\.js::adds 1, ran past/,
    );
  });

  it('gives a fifth of rerunTimeoutMs, 1 s at least, once two of the family ran past their limits, where that is shorter', () => {
    const twice = { id: 'a.test.js::adds 1', scope: 'each' as const, count: 2 };
    const short = siblingLimit(whole, twice, 10_000, false);
    expect(short).toEqual({
      ms: 2000,
      why: 'the limit a test gets once 2 tests of the same test.each, the first a.test.js::adds 1, ran past their limits in this run: a fifth of the runner option "rerunTimeoutMs", 1 s at least',
      sibling: { after: 'a.test.js::adds 1', scope: 'each', wholeMs: 30_000, rerunMs: 10_000, repeated: 2 },
    });
    expect(stoppedMessage(short)).toMatch(
      /raise the runner option "rerunTimeoutMs" \(10000 now\), or run it alone: it then gets its whole limit of 30000 ms\.$/,
    );
    expect(siblingLimit(whole, { ...twice, count: 5 }, 3000, false).ms).toBe(1000);
    // no shorter than rerunTimeoutMs itself: the plain sibling limit
    expect(siblingLimit(whole, { ...twice, count: 5 }, 1000, false)).toEqual(
      siblingLimit(whole, { ...twice, count: 1 }, 1000, false),
    );
    expect(siblingLimit(whole, twice, 10_000, true)).toBe(whole);
    expect(siblingLimit(whole, { ...twice, scope: 'file', count: 3 }, 10_000, false).why).toMatch(
      /once 3 tests of the same file, the first a\.test\.js::adds 1, ran past their limits/,
    );
  });
});
