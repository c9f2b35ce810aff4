import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { atomicWrite } from './atomic.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-atomic-'));
  dirs.push(dir);
  return dir;
}

describe('atomicWrite', () => {
  it('names the file being written when its temp file cannot be created', async () => {
    const dir = await scratch();
    const target = join(dir, 'missing', 'a.py');
    const error = (await atomicWrite(target, 'x').catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(error.code).toBe('ENOENT');
    expect(error.path).toBe(target);
    expect(error.message).toContain(target);
    expect(error.message).not.toContain('suture-tmp');
  });

  it('removes its temp file and names the target when the rename fails', async () => {
    const dir = await scratch();
    const target = join(dir, 'a.py');
    await mkdir(join(target, 'inside'), { recursive: true });
    const error = (await atomicWrite(target, 'x').catch((e: unknown) => e)) as NodeJS.ErrnoException;
    expect(['EISDIR', 'ENOTEMPTY', 'EEXIST']).toContain(error.code);
    expect(error.path).toBe(target);
    expect(error.message).not.toContain('suture-tmp');
    expect(await readdir(dir)).toEqual(['a.py']);
  });
});
