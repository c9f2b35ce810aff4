function expectSum(add) {
  expect(add(2, 3)).toBe(5);
}

module.exports = { expectSum };
