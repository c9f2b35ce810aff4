const { repeat } = require('../src/cache');

test('repeats an odd number of times', () => {
  expect(repeat('ab', 3)).toBe('ab0ab1ab2');
});
