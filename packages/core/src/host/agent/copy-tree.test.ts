import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../safety/atomic.js';
import { copyTree } from './copy-tree.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

async function temp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'suture-copy-tree-'));
  temps.push(dir);
  return dir;
}

async function put(root: string, files: Record<string, string>): Promise<void> {
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
}

const exists = (path: string): Promise<boolean> =>
  lstat(path).then(
    () => true,
    () => false,
  );

describe('copyTree', () => {
  it("copies a git work tree's tracked and untracked files, links dependency folders, leaves ignored ones out", async () => {
    const root = await temp();
    await put(root, {
      '.gitignore': 'node_modules/\n*.log\nbuild/\n.venv/\n',
      'src/app.py': 'x = 1\n',
      'web/index.js': 'module.exports = 1;\n',
      'web/node_modules/dep/index.js': 'module.exports = 2;\n',
      '.venv/pyvenv.cfg': 'home = /usr/bin\n',
      'debug.log': 'noise\n',
      'build/out.o': 'binary\n',
      '.suture/sessions/s/session.json': '{}\n',
    });
    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['add', '.gitignore', 'src/app.py'], { cwd: root });
    const dest = await temp();
    const copy = await copyTree(root, dest);
    expect([...copy.hashes.keys()].sort()).toEqual(['.gitignore', 'src/app.py', 'web/index.js']);
    expect(copy.hashes.get('src/app.py')).toBe(sha256('x = 1\n'));
    expect(await readFile(join(dest, 'web/index.js'), 'utf8')).toBe('module.exports = 1;\n');
    expect(copy.linked.sort()).toEqual(['.venv', 'web/node_modules']);
    expect(await readlink(join(dest, 'web/node_modules'))).toBe(join(root, 'web/node_modules'));
    expect(await exists(join(dest, 'debug.log'))).toBe(false);
    expect(await exists(join(dest, 'build'))).toBe(false);
    expect(await exists(join(dest, '.suture'))).toBe(false);
  });

  it('walks a folder outside git, skipping version control, suture, build and cache folders', async () => {
    const root = await temp();
    await put(root, {
      'pkg/mod.py': 'y = 2\n',
      'pkg/__pycache__/mod.cpython-311.pyc': 'cache',
      'node_modules/dep/index.js': 'dep',
      'build/CMakeCache.txt': 'cache',
      '.suture/lock': '{}',
    });
    const dest = await temp();
    const copy = await copyTree(root, dest);
    expect([...copy.hashes.keys()]).toEqual(['pkg/mod.py']);
    expect(copy.linked).toEqual(['node_modules']);
    expect(await exists(join(dest, 'build'))).toBe(false);
  });
});
