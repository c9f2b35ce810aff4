import { expect, test } from 'vitest';

test('adds', () => {
  expect(1 + 1).toBe(2);
});

test('multiplies', () => {
  expect(2 * 3).toBe(6);
});
