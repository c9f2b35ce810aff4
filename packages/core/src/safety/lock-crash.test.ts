import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { hasJournal, Journal, recover } from './journal.js';
import { acquireLock, LockError } from './lock.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});
async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-lock-crash-'));
  dirs.push(root);
  await writeFile(join(root, 'a.txt'), 'original\n');
  return root;
}

/** A process that takes the lock through the source module and is held at `point` until killed. */
function holdAt(root: string, point: string): Promise<{ pid: number; kill: () => Promise<void> }> {
  const lockModule = pathToFileURL(join(import.meta.dirname, 'lock.ts')).href;
  const log = join(root, `${point.replace(/\W/g, '_')}.log`);
  const script = `const { createJiti } = await import('jiti'); const { acquireLock } = await createJiti(import.meta.url).import(${JSON.stringify(lockModule)}); await acquireLock(process.argv[1], 'held'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, root], {
    cwd: import.meta.dirname,
    stdio: 'inherit',
    env: { ...process.env, SUTURE_PHASE_LOG: log, SUTURE_PHASE_HOLD: `${point}=60000` },
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    const timer = setInterval(async () => {
      if ((await readFile(log, 'utf8').catch(() => '')).includes(point)) {
        clearInterval(timer);
        resolve({ pid: child.pid!, kill: async () => void (child.kill('SIGKILL'), await exited) });
      }
    }, 10);
  });
}

describe('the repository lock under SIGKILL', () => {
  it('a run killed the moment its lock exists leaves a lock naming it, which the next run takes over at once', async () => {
    const root = await repo();
    const held = await holdAt(root, 'lock:created');
    await held.kill();
    // Never an empty lock that makes the next run wait for it to age.
    expect(JSON.parse(await readFile(join(root, '.suture/lock'), 'utf8'))).toMatchObject({
      pid: held.pid,
      runId: 'held',
    });
    const lock = await acquireLock(root, 'next');
    expect(lock.staleFrom?.pid).toBe(held.pid);
    await lock.release();
  });

  it('a run killed between linking its lock and removing the file it linked leaves nothing the next run keeps', async () => {
    const root = await repo();
    const held = await holdAt(root, 'lock:linked');
    await held.kill();
    const leftover = (await readdir(join(root, '.suture'))).filter((n) => n.startsWith(`lock.${held.pid}-`));
    expect(leftover).toHaveLength(1);
    const lock = await acquireLock(root, 'next');
    expect(lock.staleFrom?.pid).toBe(held.pid);
    expect((await readdir(join(root, '.suture'))).filter((n) => n.startsWith('lock'))).toEqual(['lock']);
    await lock.release();
  });

  it('recover refuses while a live run holds the lock, and recovers once that run is dead', async () => {
    const root = await repo();
    const journal = await Journal.create(root, 'live');
    await journal.write('a.txt', 'changed by the run\n');
    const held = await holdAt(root, 'lock:created');
    try {
      const err = await recover(root).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(LockError);
      expect((err as Error).message).toContain(`pid ${held.pid}`);
      expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('changed by the run\n');
      expect(await hasJournal(root)).toBe(true);
    } finally {
      await held.kill();
    }
    expect(await recover(root)).toMatchObject({ found: true, restored: ['a.txt'] });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('original\n');
    await expect(readFile(join(root, '.suture/lock'))).rejects.toThrow(/ENOENT/);
  });
});
