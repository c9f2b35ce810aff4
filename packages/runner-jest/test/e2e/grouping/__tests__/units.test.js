const { parseWeight, toGrams } = require('../src/units');

describe('weights', () => {
  test('converts kilograms', () => {
    expect(toGrams(2, 'kg')).toBe(2000);
  });

  test('parses a weight', () => {
    expect(parseWeight('3 lb')).toBeCloseTo(1360.8);
  });

  test.each([
    [1, 'g', 1],
    [2, 'kg', 2000],
    [3, 'lb', 1360.8],
  ])('converts %d %s', (quantity, unit, grams) => {
    expect(toGrams(quantity, unit)).toBeCloseTo(grams);
  });
});
