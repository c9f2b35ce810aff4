test('starts', () => {
  expect(1 + 1).toBe(2);
});

// keeps the event loop busy and never settles, with a Jest timeout past any run's limit
test('waits forever', () => new Promise(() => setInterval(() => {}, 1000)), 3_600_000);
