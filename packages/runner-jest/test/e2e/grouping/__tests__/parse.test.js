const { expectGrams } = require('../tests/expect-weight');

test('parses grams', () => {
  expectGrams('5 g', 5);
});

test('parses pounds', () => {
  expectGrams('2 lb', 907.2);
});
