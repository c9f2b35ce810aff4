import { add } from '../src/math.js';

test('adds', () => {
  expect(add(2, 3)).toBe(5);
});
test('ok', () => {
  expect(1).toBe(1);
});
