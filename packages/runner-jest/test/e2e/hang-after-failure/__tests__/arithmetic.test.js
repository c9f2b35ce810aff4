// The larger file: Jest runs it first in band when it has no timings, so its failure is printed
// before the other file's test starts to loop.
function double(n) {
  return n * 2;
}

describe('arithmetic', () => {
  test('doubles', () => {
    expect(double(2)).toBe(4);
  });
  test('doubles badly', () => {
    expect(double(3)).toBe(7);
  });
});
