import { describe, expect, it } from 'vitest';
import { add, double } from '../src/calc';

describe('calc', () => {
  it('adds', () => {
    const total = add(2, 3);
    expect(total).toBe(5);
  });

  it('doubles', () => {
    expect(double(4)).toBe(8);
  });
});
