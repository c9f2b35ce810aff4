import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipSummary, walkFolders } from './walk.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function tree(files: string[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'init-walk-'));
  temps.push(dir);
  for (const f of files) {
    await mkdir(join(dir, f, '..'), { recursive: true });
    await writeFile(join(dir, f), f.endsWith('CMakeLists.txt') ? 'project(gtest CXX C)\n' : '');
  }
  return dir;
}

describe('walkFolders outside a git repository', () => {
  it('knows build folders, environments and GoogleTest by what they hold, whatever their name', async () => {
    const dir = await tree([
      'src/a.py',
      'bin/CMakeCache.txt',
      'envs/py311/conda-meta/history',
      'cpp/gt/CMakeLists.txt',
      'cpp/gmock/README.md',
      '.hidden/x.py',
      'src/__pycache__/a.pyc',
    ]);
    const walk = await walkFolders(dir, { depth: 3, includeSubmodules: false });
    expect(walk.top).toBeUndefined();
    expect(walk.folders.map((f) => relative(dir, f) || '.')).toEqual(['.', 'cpp', 'envs', 'src']);
    expect(skipSummary(walk.skipped)).toEqual([
      'skipped 2 bundled GoogleTest trees: cpp/gmock, cpp/gt',
      'skipped 1 Python virtualenv: envs/py311',
      'skipped 1 build output folder: bin',
    ]);
  });

  it('stops at the depth it is given and lists at most a few folders per reason', async () => {
    const dir = await tree([
      ...[
        'build',
        'build-arm',
        'build_x86',
        'buildDebug',
        'cmake-build-release',
        'out',
        'dist',
        'bazel-bin',
      ].map((b) => `${b}/f`),
      'buildtools/f',
      'a/b/c/d/e/f',
    ]);
    const walk = await walkFolders(dir, { depth: 2, includeSubmodules: false });
    expect(walk.folders.map((f) => relative(dir, f) || '.')).toEqual(['.', 'a', 'a/b', 'buildtools']);
    expect(skipSummary(walk.skipped, 3)).toEqual([
      'skipped 8 build output folders: bazel-bin, build, build-arm, and 5 more',
    ]);
  });
});
