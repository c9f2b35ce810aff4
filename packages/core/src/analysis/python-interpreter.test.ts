import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePython, shellPath } from './python-interpreter.js';

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'suture-python-')));
});
afterAll(() => rm(root, { recursive: true, force: true }));

async function project(name: string): Promise<string> {
  const dir = join(root, name);
  await mkdir(dir, { recursive: true });
  return dir;
}

function venv(dir: string): void {
  execFileSync('python3', ['-m', 'venv', '--without-pip', dir], { stdio: 'ignore' });
}

const prefixOf = (python: string): string =>
  execFileSync(python, ['-c', 'import sys; print(sys.prefix)'], { encoding: 'utf8' }).trim();

describe('resolvePython', () => {
  it("finds the project's .venv before venv, and that interpreter runs in its virtualenv", async () => {
    const dir = await project('both');
    venv(join(dir, 'venv'));
    expect(await resolvePython(dir)).toBe(join(dir, 'venv', 'bin', 'python'));
    venv(join(dir, '.venv'));
    const python = await resolvePython(dir);
    expect(python).toBe(join(dir, '.venv', 'bin', 'python'));
    expect(prefixOf(python)).toBe(join(dir, '.venv'));
  }, 60_000);

  it('falls back to python3 on PATH, skipping a venv folder whose python is not executable', async () => {
    const dir = await project('none');
    const onPath = execFileSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).trim();
    expect(await resolvePython(dir)).toBe(onPath);
    await mkdir(join(dir, '.venv', 'bin'), { recursive: true });
    await writeFile(join(dir, '.venv', 'bin', 'python'), '');
    await chmod(join(dir, '.venv', 'bin', 'python'), 0o644);
    expect(await resolvePython(dir)).toBe(onPath);
  });

  it('takes the option over any virtualenv: absolute as is, a bare name for PATH, a relative path from the project root', async () => {
    const dir = await project('configured');
    venv(join(dir, '.venv'));
    expect(await resolvePython(dir, '/usr/bin/python3')).toBe('/usr/bin/python3');
    expect(await resolvePython(dir, 'python3-suture-missing')).toBe('python3-suture-missing');
    const relative = await resolvePython(dir, 'tools/py/bin/python');
    expect(relative).toBe(join(dir, 'tools', 'py', 'bin', 'python'));
    // the same answer whatever the working directory of the process asking
    const before = process.cwd();
    try {
      process.chdir(tmpdir());
      expect(await resolvePython(dir, './.venv/bin/python')).toBe(join(dir, '.venv', 'bin', 'python'));
    } finally {
      process.chdir(before);
    }
    expect(prefixOf(await resolvePython(dir, '.venv/bin/python'))).toBe(join(dir, '.venv'));
  }, 60_000);
});

/** A folder holding an executable `python3` that is a shell script saying which one it is. */
async function fakePython(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'python3');
  await writeFile(file, '#!/bin/sh\necho fake\n');
  await chmod(file, 0o755);
  return file;
}

describe('python3 as the shell finds it under a Node task runner', () => {
  const realPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
    encoding: 'utf8',
  }).trim();
  const shell = dirname(realPython);
  const nodeDir = dirname(process.execPath);

  it('skips the node_modules/.bin folders Nx and npm prepend, and the Node folder right after them', async () => {
    const dir = await project('nx-path');
    const bins = [join(dir, 'apps', 'lib', 'node_modules', '.bin'), join(dir, 'node_modules', '.bin')];
    for (const bin of bins) await fakePython(bin);
    const node = await fakePython(join(dir, 'node', 'bin'));
    const PATH = [...bins, dirname(node), shell].join(delimiter);
    // the runner's Node folder is the fake one here, as /usr/bin is where Node and the system python3 share it
    expect(shellPath(PATH, join(dirname(node), 'node'))).toEqual([shell]);
    expect(shellPath([...bins, nodeDir, shell].join(delimiter))).toEqual([shell]);
    expect(await resolvePython(dir, undefined, { PATH: [...bins, nodeDir, shell].join(delimiter) })).toBe(
      realPython,
    );
  });

  it("keeps a PATH that does not start with a Node task runner folder, and Node's folder when the shell had it first", () => {
    expect(shellPath([nodeDir, shell].join(delimiter))).toEqual([nodeDir, shell]);
    const bin = join(root, 'node_modules', '.bin');
    // npm-run-path adds Node's folder once; a second copy is the shell's own first entry
    expect(shellPath([bin, nodeDir, nodeDir, shell].join(delimiter))).toEqual([nodeDir, shell]);
  });

  it('takes a python3 only a node_modules/.bin has rather than none, and the activated virtualenv before PATH', async () => {
    const dir = await project('only-bin');
    const fake = await fakePython(join(dir, 'node_modules', '.bin'));
    expect(await resolvePython(dir, undefined, { PATH: dirname(fake) })).toBe(fake);
    const active = join(root, 'active-venv');
    venv(active);
    expect(
      await resolvePython(dir, undefined, {
        PATH: [dirname(fake), shell].join(delimiter),
        VIRTUAL_ENV: active,
      }),
    ).toBe(join(active, 'bin', 'python'));
    expect(await resolvePython(dir, 'python3', { PATH: [dirname(fake), shell].join(delimiter) })).toBe(
      realPython,
    );
  }, 60_000);
});
