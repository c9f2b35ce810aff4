test('loops with no call', () => {
  for (;;) {
    // no call in the loop: nothing here gives up the thread
  }
});
