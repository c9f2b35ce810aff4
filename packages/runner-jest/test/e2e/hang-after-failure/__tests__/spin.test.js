test('spins forever', () => {
  while (true) {}
});
