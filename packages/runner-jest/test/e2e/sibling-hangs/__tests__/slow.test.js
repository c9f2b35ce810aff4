// the first case never settles; the second blocks its worker for a while and then passes
test.each([1, 2])('works through %i', (n) => {
  if (n === 1) return new Promise(() => {});
  const end = Date.now() + 4000;
  while (Date.now() < end) {}
  return undefined;
});
