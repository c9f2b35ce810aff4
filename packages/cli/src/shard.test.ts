import { describe, expect, it } from 'vitest';
import { parseShard, planShards } from './shard.js';

describe('planShards', () => {
  it('puts the longest projects first onto the least loaded shard, the same way every time', () => {
    const durations = new Map([
      ['a', 900],
      ['b', 500],
      ['c', 400],
      ['d', 300],
      ['e', 100],
    ]);
    const plan = planShards(['e', 'd', 'c', 'b', 'a'], durations, 2);
    expect(plan).toEqual([
      ['a', 'd'],
      ['b', 'c', 'e'],
    ]);
    expect(planShards(['a', 'b', 'c', 'd', 'e'], durations, 2)).toEqual(plan);
  });

  it('without history splits by count, by name, and leaves extra shards empty', () => {
    expect(planShards(['c', 'a', 'b'], new Map(), 2)).toEqual([['a', 'c'], ['b']]);
    expect(planShards(['a'], new Map(), 3)).toEqual([['a'], [], []]);
  });

  it('weighs a project missing from the history as the mean of the known ones', () => {
    expect(
      planShards(
        ['old', 'new', 'small'],
        new Map([
          ['old', 100],
          ['small', 20],
        ]),
        2,
      ),
    ).toEqual([['old'], ['new', 'small']]);
  });
});

describe('parseShard', () => {
  it('reads i/n and refuses what is not 1 <= i <= n', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, count: 4 });
    for (const bad of ['0/4', '5/4', '2', 'a/b', '1/0'])
      expect(() => parseShard(bad)).toThrow(
        `--shard expects i/n with 1 <= i <= n (e.g. --shard 2/4), got "${bad}"`,
      );
  });
});
