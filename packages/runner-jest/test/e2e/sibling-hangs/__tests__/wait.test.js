test.each([1, 2, 3])('waits %i', () => new Promise(() => {}));

test('waits with its own timeout', () => new Promise(() => {}), 2500);

test('passes after the waits', () => new Promise((resolve) => setTimeout(resolve, 200)));
