// Runs once in each project of package.json: one project's run passes, the other's fails.
test('runs in alpha', () => {
  expect(MODE).toBe('alpha');
});
test('runs anywhere', () => {
  expect(typeof MODE).toBe('string');
});
