describe('math', () => {
  test('adds', () => expect(1 + 2).toBe(3));
  test.each([
    [1, 1, 2],
    [2, 3, 5],
  ])('adds %i + %i', (a, b, sum) => expect(a + b).toBe(sum));
  test.skip('divides later', () => expect(1 / 0).toBe(0));
  test.todo('rounds someday');
  describe('nested', () => {
    it('multiplies', () => expect(2 * 3).toBe(6));
  });
});

test('top level', async () => {
  await new Promise((resolve) => setTimeout(resolve, 10));
  expect(Math.max(1, 2)).toBe(2);
});
