import { clamp } from '../src/math';

test('clamps below', () => {
  expect(clamp(-1, 0, 10)).toBe(0);
});

test('clamps above', () => {
  expect(clamp(11, 0, 10)).toBe(10);
});
