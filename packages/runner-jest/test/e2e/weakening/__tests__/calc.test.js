const { add } = require('../src/calc');

describe('calc', () => {
  test('adds', () => {
    const total = add(2, 3);
    expect(total).toBe(5);
  });

  test('adds zero', () => {
    expect(add(0, 0)).toBe(0);
  });
});
