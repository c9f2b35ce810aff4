const { mul } = require('../src/index');
const { sub } = require('../src/all');

test('multiplies', () => {
  expect(mul(3, 4)).toBe(12);
});

test('subtracts', () => {
  expect(sub(5, 3)).toBe(2);
});
