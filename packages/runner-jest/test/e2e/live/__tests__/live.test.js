const fs = require('node:fs');

test('first', () => expect(1).toBe(1));

// Passes only once the runner has handed the first result on, which it must do while Jest runs.
test('second waits for the first result', async () => {
  while (!fs.existsSync(process.env.FIRST_DELIVERED)) await new Promise((r) => setTimeout(r, 50));
}, 60000);
