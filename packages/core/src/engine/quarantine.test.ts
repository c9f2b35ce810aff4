import { describe, expect, it } from 'vitest';
import { matchesQuarantine, quarantineOf } from './quarantine.js';

const NOW = new Date('2026-12-03T12:00:00Z');
const entry = (test: string, expires: string) => ({ test, owner: 'ana', expires });

describe('quarantine', () => {
  it('matches ids exactly, * as any characters, and nothing else as a pattern', () => {
    expect(matchesQuarantine('a.py::test_x', 'a.py::test_x')).toBe(true);
    expect(matchesQuarantine('a.py::test_*', 'a.py::test_x[1]')).toBe(true);
    expect(matchesQuarantine('a.py::test_x', 'a.py::test_x2')).toBe(false);
    // regular-expression characters in an id are literal
    expect(matchesQuarantine('a.py::test_x[1]', 'a.py::test_x1')).toBe(false);
    expect(matchesQuarantine('a.py::t.st', 'a.py::test')).toBe(false);
  });

  it('holds a failure only when every one of its tests is in a live entry; the expiry day still counts', () => {
    const live = [entry('a::*', '2026-12-03')];
    expect(quarantineOf({ tests: ['a::x', 'a::y'] }, live, NOW).held).toBe(true);
    // one test of the group outside the list: it blocks
    expect(quarantineOf({ tests: ['a::x', 'b::y'] }, live, NOW).held).toBe(false);
    // the day after the expiry: it blocks, and names the expired entry
    const late = quarantineOf({ tests: ['a::x'] }, live, new Date('2026-12-04T00:00:01Z'));
    expect(late.held).toBe(false);
    expect(late.matches).toEqual([{ test: 'a::*', owner: 'ana', expires: '2026-12-03', expired: true }]);
    // a failure with no test (a build error) is never held
    expect(quarantineOf({ tests: [] }, [entry('*', '2999-01-01')], NOW).held).toBe(false);
  });
});
