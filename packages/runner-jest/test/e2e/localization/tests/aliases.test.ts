import { perimeter } from '@geo/shapes';
import { mean } from 'lib/stats';

test('perimeter of a rectangle', () => {
  expect(perimeter(2, 3)).toBe(10);
});

test('mean of values', () => {
  expect(mean([1, 2, 3])).toBe(2);
});
