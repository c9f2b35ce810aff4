test('a runs in the Jest process', () => expect(process.argv[1]).toMatch(/jest\.js$/));
