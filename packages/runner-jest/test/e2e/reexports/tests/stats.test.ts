import { average, sum } from '../src/api';

test('sums', () => {
  expect(sum([1, 2, 3])).toBe(6);
});

test('averages', () => {
  expect(average([2, 4])).toBe(3);
});
