import { describe, expect, it } from 'vitest';
import { add, double, subtract } from '../src/math';

// Tests of one full name: Vitest runs and counts each of them.
describe('math', () => {
  it('adds', () => {
    expect(add(-1, 2)).toBe(1);
  });

  it('adds', () => {
    expect(add(1, 2)).toBe(3);
  });

  it('subtracts', () => {
    expect(subtract(5, 3)).toBe(2);
  });

  it('subtracts', () => {
    expect(subtract(3, 5)).toBe(-2);
  });

  it.each([
    [1, 2],
    [2, 5],
    [3, 6],
  ])('doubles', (n, want) => {
    expect(double(n)).toBe(want);
  });
});
