const { parseWeight } = require('../src/units');

function expectGrams(text, grams) {
  expect(parseWeight(text)).toBeCloseTo(grams);
}

module.exports = { expectGrams };
