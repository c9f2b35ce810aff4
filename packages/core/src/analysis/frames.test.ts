import { describe, expect, it } from 'vitest';
import { distinctFrames } from './frames.js';

describe('distinctFrames', () => {
  it('keeps each function once, innermost first, and at most twelve frames', () => {
    const recursion = Array.from({ length: 34 }, () => ({ file: 'lib.py', line: 7, symbol: 'walk' }));
    const frames = [
      { file: 'lib.py', line: 3, symbol: 'leaf' },
      ...recursion,
      { file: 'lib.py', line: 20, symbol: 'api' },
    ];
    expect(distinctFrames(frames)).toEqual([
      { file: 'lib.py', line: 3, symbol: 'leaf' },
      { file: 'lib.py', line: 7, symbol: 'walk' },
      { file: 'lib.py', line: 20, symbol: 'api' },
    ]);
    const many = Array.from({ length: 30 }, (_, i) => ({ file: `m${i}.py`, line: 1 }));
    expect(distinctFrames(many)).toHaveLength(12);
  });
});
