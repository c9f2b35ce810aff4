import { describe, expect, it } from 'vitest';
import type { JestEvent } from './events.js';
import { Watchdog, type WatchdogLimits } from './watchdog.js';

const limits: WatchdogLimits = {
  test: () => ({ ms: 1_000, why: 'the test limit' }),
  fileGap: () => 5_000,
};
const FILE = '/repo/__tests__/a.test.js';
const start = (fullName: string, at: number): JestEvent => ({
  event: 'test-start',
  at,
  file: FILE,
  fullName,
  ancestorTitles: [],
  title: fullName,
});
const end = (fullName: string, status: string, at: number): JestEvent => ({
  event: 'test-end',
  at,
  file: FILE,
  result: { fullName, title: fullName, ancestorTitles: [], status },
});

describe('Watchdog', () => {
  it('names the test that runs past its limit where Jest reports test starts', () => {
    const dog = new Watchdog(limits);
    for (const e of [
      { event: 'file-start', at: 0, file: FILE } as JestEvent,
      end('skipped one', 'pending', 5),
      start('passes', 10),
      end('passes', 'passed', 20),
      start('spins', 30),
    ])
      dog.observe(e);
    expect(dog.overdue(500)).toEqual([]);
    expect(dog.overdue(1_031)).toMatchObject([
      { kind: 'test', test: { fullName: 'spins' }, elapsedMs: 1_001 },
    ]);
  });

  it('says outside any test when starts are reported and no test is open', () => {
    const dog = new Watchdog(limits);
    for (const e of [
      { event: 'file-start', at: 0, file: FILE } as JestEvent,
      start('passes', 10),
      end('passes', 'passed', 20),
      // a skipped test ends without starting on every Jest: it says nothing of the version
      end('skipped one', 'pending', 21),
    ])
      dog.observe(e);
    const [gap] = dog.overdue(5_100);
    expect(gap).toMatchObject({ kind: 'file', file: FILE, startsReported: true });
    expect(gap).not.toHaveProperty('lastEnded');
  });

  it('keeps the last test that ended where Jest does not report test starts (Jest before 29.6)', () => {
    const dog = new Watchdog(limits);
    for (const e of [
      { event: 'file-start', at: 0, file: FILE } as JestEvent,
      end('first', 'passed', 10),
      end('second', 'failed', 40),
    ])
      dog.observe(e);
    expect(dog.overdue(5_000)).toEqual([]);
    expect(dog.overdue(5_100)).toEqual([
      {
        kind: 'file',
        file: FILE,
        elapsedMs: 5_060,
        limitMs: 5_000,
        startsReported: false,
        lastEnded: 'second',
      },
    ]);
  });
});
