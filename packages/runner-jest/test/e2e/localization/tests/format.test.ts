const { label } = require('../src/format');

test('labels a number', () => {
  expect(label(3)).toBe('n=3');
});
