import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeIgnoredDir, SELF_IGNORE } from './ignored-dir.js';
import { acquireLock } from './lock.js';
import { Journal } from './journal.js';
import { makeRunDir } from './suture-dir.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function gitRepo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-ignored-'));
  dirs.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  await writeFile(join(root, 'app.py'), 'x = 1\n');
  execFileSync('git', ['add', 'app.py'], { cwd: root });
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x'], { cwd: root });
  return root;
}

const status = (root: string): string =>
  execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });

describe('makeIgnoredDir', () => {
  it('creates a folder, its parents too, that git status does not list, with whatever goes in it', async () => {
    const root = await gitRepo();
    expect(await makeIgnoredDir(join(root, 'out/deep/build'))).toBe(true);
    await writeFile(join(root, 'out/deep/build/CMakeCache.txt'), 'x\n');
    expect(await readFile(join(root, 'out/deep/build/.gitignore'), 'utf8')).toBe(SELF_IGNORE);
    expect(status(root)).toBe('');
  });

  it("leaves a folder that existed alone unless it is suture's, and keeps a .gitignore already there", async () => {
    const root = await gitRepo();
    await mkdir(join(root, 'build'));
    await writeFile(join(root, 'build/keep.txt'), 'the user\n');
    expect(await makeIgnoredDir(join(root, 'build'))).toBe(false);
    expect(await readdir(join(root, 'build'))).toEqual(['keep.txt']);
    expect(status(root)).toBe('?? build/keep.txt\n');

    await mkdir(join(root, 'build-suture'));
    await writeFile(join(root, 'build-suture/old.txt'), 'from an earlier version\n');
    await makeIgnoredDir(join(root, 'build-suture'), { owned: true });
    await mkdir(join(root, 'mine'));
    await writeFile(join(root, 'mine/.gitignore'), '*.o\n');
    await makeIgnoredDir(join(root, 'mine'), { owned: true });
    expect(await readFile(join(root, 'mine/.gitignore'), 'utf8')).toBe('*.o\n');
    expect(status(root)).toBe('?? build/keep.txt\n?? mine/.gitignore\n');
  });
});

describe('the folders the engine makes in a repository', () => {
  it('.suture, made by the lock, the journal or a run folder, is never listed by git status', async () => {
    for (const make of [
      async (root: string) => (await acquireLock(root, 'r1')).release(),
      async (root: string) => {
        // the journal is on disk from its first write
        const journal = await Journal.create(root, 'r1');
        await journal.write('a.txt', 'x\n');
        await journal.restore();
        await journal.close();
      },
      (root: string) => makeRunDir(root, join(root, '.suture/runs/r1')),
    ]) {
      const root = await gitRepo();
      await make(root);
      await writeFile(join(root, '.suture/leftover.txt'), 'x\n');
      expect(await readFile(join(root, '.suture/.gitignore'), 'utf8')).toBe(SELF_IGNORE);
      expect(status(root)).toBe('');
    }
  });

  it('a run folder under a configured output folder elsewhere carries its own .gitignore', async () => {
    const root = await gitRepo();
    await makeRunDir(root, join(root, 'reports/r1'));
    await writeFile(join(root, 'reports/r1/report.json'), '{}\n');
    expect(await readdir(join(root, 'reports'))).toEqual(['r1']);
    expect(status(root)).toBe('');
  });
});
