const { mul } = require('../src/calc');

test.each([
  [1, 1, 1],
  [2, 3, 7],
  [3, 4, 12],
])('multiplies %i by %i into %i', (a, b, product) => {
  expect(mul(a, b)).toBe(product);
});
