test('upper', () => expect('a'.toUpperCase()).toBe('A'));
test('snapshot-free match', () => expect({ a: 1, b: [2] }).toEqual({ a: 1, b: [2] }));
