import { execFileSync } from 'node:child_process';
import { it } from 'vitest';

it('blocks in native code', () => {
  // the thread waits in the kernel, where no interrupt reaches it
  execFileSync('sleep', ['30']);
});
