import { nodeKey, type ReachedNode } from '@suture/core/analysis';
import { describe, expect, it } from 'vitest';
import { innerCallKey } from './js-graph.js';
import { spectrumReach, testReach } from './js-spectrum.js';

const key = (symbol: string): string => nodeKey({ file: 'src/filter.js', symbol });
const node = (symbol: string, callers: string[]): ReachedNode => ({
  node: { file: 'src/filter.js', symbol },
  role: 'source',
  depth: 0,
  distance: 1,
  reasons: ['reached'],
  callers,
});
// every test builds the filter (the constructor calls createStore); only `mayContain` calls the
// store's getValue, a method defined inside createStore
const innerCalls = new Set([innerCallKey(key('Filter.mayContain'), key('Filter.createStore'))]);
const builds = node('Filter.createStore', [key('Filter.constructor')]);
const failingTest = testReach(
  [
    node('Filter.constructor', []),
    node('Filter.mayContain', []),
    node('Filter.createStore', [key('Filter.constructor'), key('Filter.mayContain')]),
  ],
  innerCalls,
);
const passingTest = testReach([node('Filter.constructor', []), builds, node('Filter.hash', [])], innerCalls);

describe('spectrumReach', () => {
  it('tells a call of a function inside another from a call of that function', () => {
    expect([...failingTest.inner]).toEqual([key('Filter.createStore')]);
    expect(passingTest.inner.size).toBe(0);
    expect(passingTest.all.has(key('Filter.createStore'))).toBe(true);
  });

  it('counts a factory reached by every test as reached only through its methods when that goes with the failure', () => {
    const { failing, passing } = spectrumReach([failingTest], [passingTest, passingTest]);
    expect(failing[0]!.has(key('Filter.createStore'))).toBe(true);
    expect(passing.every((s) => !s.has(key('Filter.createStore')))).toBe(true);
    // the rest of the reach is left as it was
    expect(passing[0]!.has(key('Filter.constructor'))).toBe(true);
    expect(failing[0]!.has(key('Filter.mayContain'))).toBe(true);
  });

  it('keeps every call of a factory when its methods go less with the failure than its own body', () => {
    // the passing tests call the methods, the failing one only builds the object
    const failingBuild = testReach([node('Filter.constructor', []), builds], innerCalls);
    const passingUse = testReach(
      [node('Filter.mayContain', []), node('Filter.createStore', [key('Filter.mayContain')])],
      innerCalls,
    );
    const { failing } = spectrumReach([failingBuild], [passingUse]);
    expect(failing[0]!.has(key('Filter.createStore'))).toBe(true);
  });
});
