import { clamp } from '../src/math';

const loaded = await import('../src/math');

test('clamps below', () => {
  expect(loaded.clamp(-1, 0, 10)).toBe(0);
});

test('clamps above', () => {
  expect(clamp(11, 0, 10)).toBe(10);
});
