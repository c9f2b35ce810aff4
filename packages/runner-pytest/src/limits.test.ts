import { describe, expect, it } from 'vitest';
import { DurationMemory, testLimits } from './limits.js';
import { PytestOptionsSchema } from './options.js';

const options = PytestOptionsSchema.parse({});

describe('testLimits', () => {
  const memory = new DurationMemory();
  memory.record(
    [
      ['t.py::quick', 20],
      ['t.py::slow', 4_000],
      ['t.py::slower', 30_000],
    ],
    [300, 50],
  );

  it('gives every test of a full run the configured limit', () => {
    expect(testLimits(options, undefined, memory)).toEqual({
      defaultS: 60,
      perTest: {},
      measuredMs: {},
      cut: [],
      rerunS: 10,
    });
  });

  it('gives a re-run 5x each measured duration, at least rerunTimeoutMs and at most testTimeoutMs', () => {
    const limits = testLimits(options, ['t.py::quick', 't.py::slow', 't.py::slower', 't.py::new'], memory);
    // quick: 5x its 300 ms of fixture setup is under the 10 s floor; slower: 150 s is over the 60 s cap
    expect(limits.perTest).toEqual({ 't.py::quick': 10, 't.py::slow': 20 });
    expect(limits.measuredMs).toEqual({ 't.py::quick': 300, 't.py::slow': 4_000 });
    expect(limits.defaultS).toBe(60);
  });

  it('sets no limit at all when testTimeoutMs is 0', () => {
    const off = PytestOptionsSchema.parse({ testTimeoutMs: 0 });
    expect(testLimits(off, ['t.py::quick'], memory)).toEqual({
      defaultS: null,
      perTest: {},
      measuredMs: {},
      cut: [],
      rerunS: null,
    });
  });

  it('gives a re-run of a test a limit cut short before, never measured, rerunTimeoutMs', () => {
    const cutMemory = new DurationMemory();
    cutMemory.record([['t.py::known', 40]], [], ['t.py::hung', 't.py::known']);
    const limits = testLimits(options, ['t.py::hung', 't.py::known'], cutMemory);
    // known: a limit cut it short this time, but an earlier run measured it
    expect(limits.perTest).toEqual({ 't.py::hung': 10, 't.py::known': 10 });
    expect(limits.cut).toEqual(['t.py::hung']);
    expect(limits.measuredMs).toEqual({ 't.py::known': 40 });
    // measured later, it is no longer cut
    cutMemory.record([['t.py::hung', 30]], []);
    expect(testLimits(options, ['t.py::hung'], cutMemory).cut).toEqual([]);
    // a floor at or above the limit leaves the limit
    const low = PytestOptionsSchema.parse({ testTimeoutMs: 8000 });
    cutMemory.record([], [], ['t.py::other']);
    expect(testLimits(low, ['t.py::other'], cutMemory)).toMatchObject({ defaultS: 8, perTest: {}, cut: [] });
  });

  it('gives the siblings of a test that reached its limit rerunTimeoutMs, unless that is no less than the limit', () => {
    const quick = PytestOptionsSchema.parse({ testTimeoutMs: 3000, rerunTimeoutMs: 500 });
    expect(testLimits(quick, undefined, memory).rerunS).toBe(0.5);
    const even = PytestOptionsSchema.parse({ testTimeoutMs: 3000, rerunTimeoutMs: 3000 });
    expect(testLimits(even, undefined, memory).rerunS).toBeNull();
  });
});
