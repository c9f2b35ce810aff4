describe('plain', () => {
  test('passes', () => expect(true).toBe(true));
  test('fails', () => expect(2 * 2).toBe(5));
});
