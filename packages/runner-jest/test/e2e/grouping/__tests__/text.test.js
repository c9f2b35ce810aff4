const { truncate } = require('../src/text');

test('truncates to the short limit', () => {
  expect(truncate('abcdefghijkl', 'short')).toBe('abcdefgh');
});

test.each([
  ['long', 40],
  ['short', 8],
])('keeps at most the %s limit', (kind, length) => {
  expect(truncate('x'.repeat(50), kind)).toHaveLength(length);
});
