test.each([1, 2, 3])('spins %i', () => {
  // eslint-disable-next-line no-constant-condition
  while (true) {}
});

test('spins after the cases', () => {
  // eslint-disable-next-line no-constant-condition
  while (true) {}
});

test('passes beside the loops', () => new Promise((resolve) => setTimeout(resolve, 200)));
