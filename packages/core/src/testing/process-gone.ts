import { setTimeout as sleep } from 'node:timers/promises';
import { processAlive } from '../safety/process/process-groups.js';

/**
 * Waits up to `ms` for the process `pid` to end, for a test that checks a process it did not
 * start (a helper a test left, a server a client closed) is gone. True once it has ended.
 */
export async function processGone(pid: number, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (processAlive(pid) && Date.now() < end) await sleep(100);
  return !processAlive(pid);
}
