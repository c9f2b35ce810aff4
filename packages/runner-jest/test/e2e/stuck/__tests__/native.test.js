const { execFileSync } = require('node:child_process');

test('blocks in native code', () => {
  // the thread waits in the kernel, where no interrupt reaches it
  execFileSync('sleep', ['30']);
});
