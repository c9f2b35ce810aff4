test('before the loop', () => expect(1 + 1).toBe(2));

test('spins forever', () => {
  // eslint-disable-next-line no-constant-condition
  while (true) {}
});

test('after the loop', () => expect([1, 2].length).toBe(2));
