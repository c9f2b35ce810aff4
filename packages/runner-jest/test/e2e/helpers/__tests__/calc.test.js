const { add } = require('../src/calc');
const { expectSum } = require('../test/utils');

function check(candidate) {
  expect(candidate(2, 3)).toBe(5);
}

test('adds', () => {
  check(add);
});

test('adds through the utility', () => {
  expectSum(add);
});
