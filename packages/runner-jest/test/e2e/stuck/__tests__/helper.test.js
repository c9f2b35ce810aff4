const { settle } = require('../src/loop');

test('passes first', () => {
  expect(1 + 1).toBe(2);
});

test('settles the counter', () => {
  expect(settle({ count: 1 })).toBe(2);
});
