// its tests pass, then its teardown never returns: the file never ends
afterAll(() => {
  // eslint-disable-next-line no-constant-condition
  while (true) {}
});

test('runs before the teardown', () => expect(2 + 2).toBe(4));
test('runs too', () => expect('a').toBe('a'));
