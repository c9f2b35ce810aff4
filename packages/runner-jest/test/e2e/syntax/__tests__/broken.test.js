const x = ;
test('never runs', () => expect(x).toBe(1));
