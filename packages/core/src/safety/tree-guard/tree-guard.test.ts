import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmod,
  mkdir,
  mkdtemp,
  readFile,
  rm,
  stat,
  symlink,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitDirTarget } from './git-dir.js';
import { takeSnapshot, undoChanges, type GuardTarget } from './tree-guard.js';
import { walkFiles } from './walk.js';
import { TreeWatch } from './watch.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', ...args], { cwd, encoding: 'utf8' });

async function put(root: string, rel: string, content: string): Promise<void> {
  await mkdir(dirname(join(root, rel)), { recursive: true });
  await writeFile(join(root, rel), content);
}

/** A repository with tracked, dirty, untracked and ignored files, as a user's tree has. */
async function repo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-guard-'));
  dirs.push(root);
  await put(root, '.gitignore', 'out/\n*.log\n');
  await put(root, 'src/calc.py', 'def add(a, b):\n    return a + b\n');
  await put(root, 'src/run.sh', '#!/bin/sh\necho run\n');
  await chmod(join(root, 'src/run.sh'), 0o755);
  await put(
    root,
    'tests/test_calc.py',
    'from src.calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  );
  await put(root, 'include/extra.h', '#define EXTRA 1\n');
  await symlink('calc.py', join(root, 'src/link.py'));
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'init');
  // the user's own work in progress, which nothing may lose
  await put(root, 'src/calc.py', 'def add(a, b):\n    return a + b  # wip\n');
  await put(root, 'notes.txt', 'my notes\n');
  await put(root, 'out/old.bin', 'built\n');
  return root;
}

/** Every file below `root` but `.git/objects` with its hash and mode, and git's own view. */
async function fingerprint(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await walkFiles(root, { skipPath: new Set(['.git/objects', '.git/logs']) })) {
    if (f === '.git/index') continue;
    const s = await stat(join(root, f)).catch(() => undefined);
    const bytes = await readFile(join(root, f)).catch(() => Buffer.from('(link)'));
    out[f] = `${createHash('sha256').update(bytes).digest('hex')} ${s ? (s.mode & 0o777).toString(8) : '-'}`;
  }
  out['(git status)'] = git(root, 'status', '--porcelain', '--ignored', '--untracked-files=all');
  return out;
}

const tree = (root: string, extra: Partial<GuardTarget> = {}): GuardTarget => ({
  root,
  label: '',
  watch: 'tree',
  ...extra,
});

describe('a run watched with the whole tree', () => {
  it('leaves the tree byte-identical however a hostile test changes it, and names each change', async () => {
    const root = await repo();
    const before = await fingerprint(root);
    const snapshot = await takeSnapshot(tree(root));
    // what a patch under validation does to the tree it can write
    await put(root, 'tests/test_calc.py', 'def test_add():\n    assert True\n'); // a clean tracked file
    await put(root, 'src/calc.py', 'def add(a, b):\n    return 5\n'); // the user's dirty file
    await unlink(join(root, 'include/extra.h')); // a tracked file deleted
    await chmod(join(root, 'src/run.sh'), 0o644); // a mode changed
    await unlink(join(root, 'src/link.py'));
    await writeFile(join(root, 'src/link.py'), 'not a link\n'); // a link made a file
    await put(root, 'planted.py', 'import os\n'); // a new untracked file
    await put(root, 'pkg/deep/planted.py', 'x = 1\n'); // in a new folder
    await put(root, 'notes.txt', 'changed\n'); // the user's untracked file
    await put(root, 'trace.log', 'ignored but new\n'); // a new ignored file
    const keepDir = await mkdtemp(join(tmpdir(), 'suture-guard-kept-'));
    dirs.push(keepDir);
    const changes = await undoChanges(snapshot, { restore: true, keepDir });
    expect(changes.map((c) => `${c.change} ${c.file} ${c.restored}`).sort()).toEqual(
      [
        'created pkg/deep/planted.py true',
        'created planted.py true',
        'created trace.log true',
        'deleted include/extra.h true',
        'modified notes.txt true',
        'modified src/calc.py true',
        'modified src/link.py true',
        'modified src/run.sh true',
        'modified tests/test_calc.py true',
      ].sort(),
    );
    expect(await fingerprint(root)).toEqual(before);
    // what the run left is kept, for the user to look at
    const kept = changes.find((c) => c.file === 'tests/test_calc.py')?.kept;
    expect(await readFile(kept!, 'utf8')).toContain('assert True');
  });

  it('sees a same-size write whose mtime was set back', async () => {
    const root = await repo();
    const target = join(root, 'tests/test_calc.py');
    const original = await readFile(target, 'utf8');
    const { mtime } = await stat(target);
    const snapshot = await takeSnapshot(tree(root));
    await new Promise((r) => setTimeout(r, 20));
    await writeFile(target, original.replace('== 5', '!= 0'));
    await utimes(target, mtime, mtime);
    const changes = await undoChanges(snapshot, { restore: true });
    expect(changes.map((c) => c.file)).toEqual(['tests/test_calc.py']);
    expect(await readFile(target, 'utf8')).toBe(original);
  });

  it('sees a change the run committed, and takes the bytes from the commit checked out before it', async () => {
    const root = await repo();
    const target = join(root, 'tests/test_calc.py');
    const original = await readFile(target, 'utf8');
    const snapshot = await takeSnapshot(tree(root));
    await writeFile(target, 'def test_add():\n    assert True\n');
    git(root, 'add', 'tests/test_calc.py');
    git(root, 'commit', '-qm', 'weaken');
    const changes = await undoChanges(snapshot, { restore: true });
    expect(changes.map((c) => `${c.change} ${c.file}`)).toEqual(['modified tests/test_calc.py']);
    expect(await readFile(target, 'utf8')).toBe(original);
  });

  it('names without restoring when asked to, and leaves what suture wrote itself', async () => {
    const root = await repo();
    const snapshot = await takeSnapshot(tree(root));
    await put(root, 'src/calc.py', 'journal wrote this\n');
    await put(root, 'tests/test_calc.py', 'the run wrote this\n');
    const changes = await undoChanges(snapshot, {
      restore: false,
      expected: async (file) => file === 'src/calc.py',
    });
    expect(changes).toEqual([
      { file: 'tests/test_calc.py', change: 'modified', restored: false, reason: 'left as the run made it' },
    ]);
    expect(await readFile(join(root, 'tests/test_calc.py'), 'utf8')).toBe('the run wrote this\n');
  });

  it("never looks into suture's own build folders", async () => {
    const root = await repo();
    const snapshot = await takeSnapshot(tree(root, { skipPaths: async () => ['build-suture'] }));
    await put(root, 'build-suture/CMakeCache.txt', 'cache\n');
    expect(await undoChanges(snapshot, { restore: true })).toEqual([]);
    expect(await readFile(join(root, 'build-suture/CMakeCache.txt'), 'utf8')).toBe('cache\n');
  });

  it('outside git, walks the tree and puts back every file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-guard-plain-'));
    dirs.push(root);
    await put(root, 'a.txt', 'a\n');
    await put(root, 'sub/b.txt', 'b\n');
    const snapshot = await takeSnapshot(tree(root));
    await put(root, 'a.txt', 'changed\n');
    await rm(join(root, 'sub/b.txt'));
    await put(root, 'new.txt', 'new\n');
    await put(root, 'node_modules/x/index.js', 'dependency\n');
    const changes = await undoChanges(snapshot, { restore: true });
    expect(changes.map((c) => `${c.change} ${c.file}`)).toEqual([
      'modified a.txt',
      'created new.txt',
      'deleted sub/b.txt',
    ]);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('a\n');
    expect(await readFile(join(root, 'sub/b.txt'), 'utf8')).toBe('b\n');
    expect(await stat(join(root, 'new.txt')).catch(() => undefined)).toBeUndefined();
  });
});

describe('a project in a folder its repository ignores', () => {
  it('is walked as a tree outside git, and a file a run planted there is removed', async () => {
    const root = await repo();
    const project = join(root, 'out', 'project');
    await put(project, 'a.py', 'x = 1\n');
    const snapshot = await takeSnapshot(tree(project, { label: 'out/project' }));
    expect(snapshot.prefix).toBeUndefined();
    await put(project, 'planted.py', 'y = 2\n');
    await put(project, 'a.py', 'x = 2\n');
    const changes = await undoChanges(snapshot, { restore: true });
    expect(changes.map((c) => `${c.change} ${c.file}`)).toEqual([
      'modified out/project/a.py',
      'created out/project/planted.py',
    ]);
    expect(await readFile(join(project, 'a.py'), 'utf8')).toBe('x = 1\n');
  });

  it('in a subfolder git lists, sees what a run adds to its ignored entries', async () => {
    const root = await repo();
    const snapshot = await takeSnapshot(tree(join(root, 'src'), { label: 'src' }));
    await put(root, 'src/debug.log', 'ignored but new\n');
    expect((await undoChanges(snapshot, { restore: true })).map((c) => c.file)).toEqual(['src/debug.log']);
  });
});

describe('a run watched for tracked files only (the user code of a first run)', () => {
  it('puts back tracked files a build deleted or wrote, and leaves the rest', async () => {
    const root = await repo();
    const snapshot = await takeSnapshot(tree(root, { watch: 'tracked' }));
    await unlink(join(root, 'include/extra.h'));
    await put(root, 'src/gen.c', 'int generated;\n'); // untracked: a build's own output
    await put(root, 'src/calc.py', 'configure_file output\n'); // the user's dirty tracked file
    const changes = await undoChanges(snapshot, { restore: true });
    expect(changes.map((c) => `${c.change} ${c.file}`)).toEqual([
      'deleted include/extra.h',
      'modified src/calc.py',
    ]);
    expect(await readFile(join(root, 'include/extra.h'), 'utf8')).toBe('#define EXTRA 1\n');
    expect(await readFile(join(root, 'src/calc.py'), 'utf8')).toContain('# wip');
    expect(await readFile(join(root, 'src/gen.c'), 'utf8')).toBe('int generated;\n');
  });
});

describe("a repository's .git", () => {
  it('gets no hook, config or attributes from a run', async () => {
    const root = await repo();
    const target = (await gitDirTarget(root))!;
    expect(target.label).toBe('.git');
    const before = await fingerprint(root);
    const watch = new TreeWatch([target], { restore: true });
    await watch.around(async () => {
      await writeFile(join(root, '.git/hooks/post-checkout'), '#!/bin/sh\ncurl evil\n', { mode: 0o755 });
      await writeFile(join(root, '.git/config'), '[core]\n\thooksPath = /tmp/evil\n', { flag: 'a' });
      await put(root, '.git/info/attributes', '* filter=evil\n');
    });
    expect(watch.take().map((c) => `${c.change} ${c.file}`)).toEqual([
      'modified .git/config',
      'created .git/hooks/post-checkout',
      'created .git/info/attributes',
    ]);
    expect(watch.take()).toEqual([]);
    expect(await fingerprint(root)).toEqual(before);
  });

  it('is undone even when the run throws', async () => {
    const root = await repo();
    const watch = new TreeWatch([(await gitDirTarget(root))!], { restore: true });
    await expect(
      watch.around(async () => {
        await writeFile(join(root, '.git/hooks/pre-commit'), '#!/bin/sh\n', { mode: 0o755 });
        throw new Error('the runner broke');
      }),
    ).rejects.toThrow('the runner broke');
    expect(watch.take().map((c) => c.file)).toEqual(['.git/hooks/pre-commit']);
    expect(await stat(join(root, '.git/hooks/pre-commit')).catch(() => undefined)).toBeUndefined();
  });
});
