test('waits alone', () => new Promise(() => {}));
