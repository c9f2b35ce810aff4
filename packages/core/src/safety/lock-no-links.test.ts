import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { acquireLock, LockError } from './lock.js';

// A filesystem without hard links (some network and FUSE mounts): link() fails with EPERM.
vi.mock('node:fs/promises', async (importOriginal) => ({
  ...(await importOriginal<typeof import('node:fs/promises')>()),
  link: async () => {
    throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
  },
}));

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('the repository lock on a filesystem without hard links', () => {
  it('is created exclusively in place, leaves no temp file, and still refuses a second run', async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-lock-nolink-'));
    dirs.push(root);
    const lock = await acquireLock(root, 'first');
    expect(JSON.parse(await readFile(join(root, '.suture/lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      runId: 'first',
    });
    expect((await readdir(join(root, '.suture'))).sort()).toEqual(['.gitignore', 'lock']);
    await expect(acquireLock(root, 'second')).rejects.toThrow(LockError);
    await lock.release();
    expect(await readdir(join(root, '.suture'))).toEqual(['.gitignore']);
  });
});
