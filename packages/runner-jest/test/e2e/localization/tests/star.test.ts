import { area, scaleBy } from '../src';

test('area of a rectangle', () => {
  expect(area(2, 3)).toBe(6);
});

test('scales points', () => {
  expect(scaleBy([[1, 2]], 3)).toEqual([[3, 6]]);
});
