const { add } = require('../src/core');
const { double } = require('../src/double');

test('double', () => {
  expect(double(4)).toBe(8);
});

test('add', () => {
  expect(add(2, 3)).toBe(5);
});

test('add zero', () => {
  expect(add(0, 0)).toBe(0);
});
