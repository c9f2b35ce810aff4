const legacy = require('../src/legacy');
const { toCm } = require('../src/units');

test('clamps above', () => {
  expect(legacy.clamp(15, legacy.limits.low, legacy.limits.high)).toBe(10);
});

test('inches to centimetres', () => {
  expect(toCm(2)).toBe(5.08);
});
