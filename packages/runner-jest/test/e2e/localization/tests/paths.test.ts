import { span } from '~lib/range';

test('span of values', () => {
  expect(span([3, 9, 4])).toBe(6);
});
