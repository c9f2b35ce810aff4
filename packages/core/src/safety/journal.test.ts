import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Journal, hasJournal, recover } from './journal.js';
import { skipSuture, snapshot } from '../../test/harness/tree.mjs';
import { acquireLock, LockError } from './lock.js';

const dirs: string[] = [];
async function tree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-journal-'));
  dirs.push(root);
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/crlf.py'), 'a = 1\r\nb = 2\r\n');
  await writeFile(join(root, 'src/no-eol.py'), 'x = 1');
  await writeFile(join(root, 'blob.bin'), Buffer.from([0, 1, 2, 255, 13, 10]));
  await writeFile(join(root, 'run.sh'), '#!/bin/sh\necho hi\n');
  await chmod(join(root, 'run.sh'), 0o755);
  return root;
}
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

describe('Journal', () => {
  it('puts nothing on disk until its first write: a run that writes nothing leaves nothing to recover', async () => {
    const root = await tree();
    const before = await snapshot(root);
    const journal = await Journal.create(root, 'quiet');
    expect(await journal.restore()).toEqual({ restored: [], deleted: [], conflicts: [] });
    await journal.close();
    expect(await snapshot(root)).toEqual(before);
    expect(await recover(root)).toMatchObject({ found: false });

    const writing = await Journal.create(root, 'writes');
    expect(await hasJournal(root)).toBe(false);
    await writing.write('src/crlf.py', 'changed\n');
    // the manifest is there before the write it records
    expect(await hasJournal(root)).toBe(true);
    await writing.restore();
    await writing.close();
    expect(await hasJournal(root)).toBe(false);
  });

  it('restores CRLF, missing trailing newline, binary content and file modes byte for byte, and deletes created files and folders', async () => {
    const root = await tree();
    const before = await snapshot(root, skipSuture);
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'a = 9\r\n');
    await journal.write('src/no-eol.py', 'x = 2\n');
    await journal.write('blob.bin', Buffer.from([9, 9]));
    await journal.write('run.sh', '#!/bin/sh\necho changed\n');
    await journal.write('src/pkg/sub/new.py', 'n = 1\n');
    expect((await stat(join(root, 'run.sh'))).mode & 0o777).toBe(0o755);
    expect(await hasJournal(root)).toBe(true);
    const outcome = await journal.restore();
    expect(outcome.restored.sort()).toEqual(['blob.bin', 'run.sh', 'src/crlf.py', 'src/no-eol.py']);
    expect(outcome.deleted).toEqual(['src/pkg/sub/new.py']);
    expect(outcome.conflicts).toEqual([]);
    await journal.close();
    expect(await snapshot(root, skipSuture)).toEqual(before);
    expect(await hasJournal(root)).toBe(false);
  });

  it('keeps a file the user changed after suture wrote it and reports the conflict', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'suture\n');
    await journal.write('src/no-eol.py', 'suture\n');
    await writeFile(join(root, 'src/crlf.py'), 'the user typed this\n');
    await rm(join(root, 'src/no-eol.py'));
    const outcome = await journal.restore();
    expect(outcome.conflicts.map((c) => c.file).sort()).toEqual(['src/crlf.py', 'src/no-eol.py']);
    expect(outcome.conflicts.find((c) => c.file === 'src/crlf.py')!.reason).toContain(
      'your version was kept',
    );
    expect(await readFile(join(root, 'src/crlf.py'), 'utf8')).toBe('the user typed this\n');
    await expect(stat(join(root, 'src/no-eol.py'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses to start over an unrecovered journal; recover restores it and reports what it did', async () => {
    const root = await tree();
    const before = await snapshot(root, skipSuture);
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'changed\n');
    await journal.write('added.txt', 'new\n');
    await expect(Journal.create(root, 'r2')).rejects.toThrow(/suture recover/);
    const outcome = await recover(root);
    expect(outcome).toMatchObject({
      found: true,
      runId: 'r1',
      restored: ['src/crlf.py'],
      deleted: ['added.txt'],
    });
    expect(await snapshot(root, skipSuture)).toEqual(before);
    expect(await recover(root)).toMatchObject({ found: false });
  });

  it('removes the temp files interrupted writes left beside every file of a folder, and no other file', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r-tmp');
    await journal.write('src/crlf.py', 'a = 9\r\n');
    await journal.write('src/no-eol.py', 'x = 2\n');
    // As a crash between an atomic write's temp file and its rename leaves them.
    await writeFile(join(root, 'src/.crlf.py.suture-tmp-123-a'), 'half');
    await writeFile(join(root, 'src/.no-eol.py.suture-tmp-123-b'), 'half');
    await writeFile(join(root, 'src/.other.py.suture-tmp-123-c'), "not suture's file to remove");
    await journal.restore();
    await journal.close();
    expect((await readdir(join(root, 'src'))).sort()).toEqual([
      '.other.py.suture-tmp-123-c',
      'crlf.py',
      'no-eol.py',
    ]);
  });

  it('restores only the files asked for', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'one\n');
    await journal.write('src/no-eol.py', 'two\n');
    await journal.restore(['src/crlf.py']);
    expect(await readFile(join(root, 'src/crlf.py'), 'utf8')).toBe('a = 1\r\nb = 2\r\n');
    expect(await readFile(join(root, 'src/no-eol.py'), 'utf8')).toBe('two\n');
    expect((await journal.original('src/no-eol.py'))!.toString()).toBe('x = 1');
  });

  it('puts back one write: the content before it, or no file and no folders made for it; a file changed since is a conflict', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'first heal\n');
    await journal.write('src/crlf.py', 'second heal\n');
    await journal.write('src/pkg/sub/new.py', 'n = 1\n');
    expect(await journal.putBack('src/crlf.py', 'second heal\n', 'first heal\n')).toBeUndefined();
    expect(await readFile(join(root, 'src/crlf.py'), 'utf8')).toBe('first heal\n');
    expect(await journal.putBack('src/pkg/sub/new.py', 'n = 1\n', undefined)).toBeUndefined();
    await expect(stat(join(root, 'src/pkg'))).rejects.toThrow(/ENOENT/);
    await writeFile(join(root, 'src/crlf.py'), 'mine\n');
    expect(await journal.putBack('src/crlf.py', 'first heal\n', 'a = 1\r\nb = 2\r\n')).toEqual({
      file: 'src/crlf.py',
      reason: expect.stringContaining('your version was kept'),
    });
    expect(await readFile(join(root, 'src/crlf.py'), 'utf8')).toBe('mine\n');
  });

  it('writes a created file again only where it is still absent: one the user made meanwhile is a conflict', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/pkg/new.py', 'n = 1\n');
    await journal.write('src/other.py', 'o = 1\n');
    expect(await journal.putBack('src/pkg/new.py', 'n = 1\n', undefined)).toBeUndefined();
    expect(await journal.putBack('src/other.py', 'o = 1\n', undefined)).toBeUndefined();
    // the heals are written again: one file is still absent, the other the user has made
    await writeFile(join(root, 'src/other.py'), 'mine\n');
    expect(await journal.putBack('src/pkg/new.py', undefined, 'n = 1\n')).toBeUndefined();
    expect(await journal.putBack('src/other.py', undefined, 'o = 1\n')).toEqual({
      file: 'src/other.py',
      reason: 'created by someone else while suture ran: your version was kept',
    });
    expect(await readFile(join(root, 'src/pkg/new.py'), 'utf8')).toBe('n = 1\n');
    expect(await readFile(join(root, 'src/other.py'), 'utf8')).toBe('mine\n');
    // the journal still knows the created file: restoring removes it, and keeps the user's
    await journal.restore();
    await expect(stat(join(root, 'src/pkg/new.py'))).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(root, 'src/other.py'), 'utf8')).toBe('mine\n');
  });
});

describe('repository lock', () => {
  it('refuses a live lock naming its pid, and releases', async () => {
    const root = await tree();
    const first = await acquireLock(root, 'a');
    const err = await acquireLock(root, 'b').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LockError);
    expect((err as Error).message).toContain(`pid ${process.pid}`);
    await first.release();
    const again = await acquireLock(root, 'c');
    expect(again.staleFrom).toBeUndefined();
    await again.release();
  });

  it('takes over the stale lock of a dead process and says whose it was', async () => {
    const root = await tree();
    // A real process that has exited: its pid is no longer alive.
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((resolve) => child.on('exit', resolve));
    await mkdir(join(root, '.suture'), { recursive: true });
    await writeFile(
      join(root, '.suture/lock'),
      JSON.stringify({ pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', runId: 'old' }),
    );
    const lock = await acquireLock(root, 'new');
    expect(lock.staleFrom?.pid).toBe(pid);
    const held = JSON.parse(await readFile(join(root, '.suture/lock'), 'utf8')) as {
      pid: number;
      hostname: string;
      startedAt: string;
    };
    expect(held.pid).toBe(process.pid);
    expect(held.hostname).toBe(hostname());
    expect(Date.parse(held.startedAt)).not.toBeNaN();
    await lock.release();
    await expect(stat(join(root, '.suture/lock'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses a lock held by a live process of another suture', async () => {
    const root = await tree();
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await mkdir(join(root, '.suture'), { recursive: true });
      await writeFile(
        join(root, '.suture/lock'),
        JSON.stringify({
          pid: sleeper.pid,
          hostname: hostname(),
          startedAt: new Date().toISOString(),
          runId: 'other',
        }),
      );
      await expect(acquireLock(root, 'mine')).rejects.toThrow(new RegExp(`pid ${sleeper.pid}`));
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});

describe('recover with a damaged journal', () => {
  it('explains an unreadable manifest and where the originals are, and keeps the journal', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'changed\n');
    await writeFile(join(root, '.suture/journal/manifest.json'), '{"version": 1, "entr');
    await expect(recover(root)).rejects.toThrow(
      /manifest\.json is unreadable.*\.suture\/journal\/files.*copy them back/,
    );
    expect(await hasJournal(root)).toBe(true);
    expect(await readFile(join(root, '.suture/journal/files/0'), 'utf8')).toBe('a = 1\r\nb = 2\r\n');
  });

  it('restores what it can and reports a file whose backup is gone', async () => {
    const root = await tree();
    const journal = await Journal.create(root, 'r1');
    await journal.write('src/crlf.py', 'changed\n');
    await journal.write('src/no-eol.py', 'changed\n');
    await rm(join(root, '.suture/journal/files/0'));
    const outcome = await recover(root);
    expect(outcome.restored).toEqual(['src/no-eol.py']);
    expect(outcome.conflicts).toEqual([
      { file: 'src/crlf.py', reason: expect.stringContaining('missing from the journal') },
    ]);
    expect(await readFile(join(root, 'src/no-eol.py'), 'utf8')).toBe('x = 1');
  });
});

describe('repository lock without readable content', () => {
  it('refuses a fresh empty lock (another run is writing it) and takes over an old garbage one', async () => {
    const root = await tree();
    await mkdir(join(root, '.suture'), { recursive: true });
    await writeFile(join(root, '.suture/lock'), '');
    await expect(acquireLock(root, 'x')).rejects.toThrow(/another suture run is starting/);
    const old = new Date(Date.now() - 60_000);
    await writeFile(join(root, '.suture/lock'), '{garbage');
    await utimes(join(root, '.suture/lock'), old, old);
    const lock = await acquireLock(root, 'y');
    expect(JSON.parse(await readFile(join(root, '.suture/lock'), 'utf8'))).toMatchObject({
      pid: process.pid,
      runId: 'y',
    });
    await lock.release();
  });
});
