const { cents } = require('@shop/money');

test('converts euros to cents', () => {
  expect(cents(1.5)).toBe(150);
});
