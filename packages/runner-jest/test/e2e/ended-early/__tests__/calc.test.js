const { add } = require('../src/calc');

test('first', () => expect(1 + 1).toBe(2));
test('adds', () => expect(add(2, 3)).toBe(5));
test('later fails', () => expect(1).toBe(2));
