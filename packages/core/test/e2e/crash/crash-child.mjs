// Applies edits through the journal step by step and SIGKILLs itself after step KILL_AT
// ("storm" keeps writing until the parent kills it). Prints each finished step.
import { createJiti } from 'jiti';

const jiti = createJiti(import.meta.url);
const { Journal } = await jiti.import('../../../src/safety/journal.ts');

const [root, killAt] = process.argv.slice(2);
const step = (n) => {
  process.stdout.write(`step ${n}\n`);
  if (killAt === String(n)) process.kill(process.pid, 'SIGKILL');
};

const journal = await Journal.create(root, 'crash-run');
step(0);
await journal.write('src/app.py', 'def f():\r\n    return 2\r\n');
step(1);
await journal.write('src/new_module.py', 'x = 1\n');
step(2);
await journal.write('src/app.py', 'def f():\r\n    return 3');
step(3);
await journal.write('data.bin', Buffer.from([0, 255, 1, 254, 10, 13]));
step(4);
await journal.write('src/nested/deep/made.py', 'y = 2\n');
step(5);
if (killAt === 'storm') {
  for (let i = 0; ; i++) {
    await journal.write(`src/app.py`, `v${i}\n`.repeat(1 + (i % 50)));
    await journal.write(`data.bin`, Buffer.alloc(4096 + i, i % 256));
    if (i % 5 === 0) process.stdout.write(`storm ${i}\n`);
  }
}
process.stdout.write('done\n');
