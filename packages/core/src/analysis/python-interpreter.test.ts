import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePython } from './python-interpreter.js';

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
    expect(await resolvePython(dir)).toBe('python3');
    await mkdir(join(dir, '.venv', 'bin'), { recursive: true });
    await writeFile(join(dir, '.venv', 'bin', 'python'), '');
    await chmod(join(dir, '.venv', 'bin', 'python'), 0o644);
    expect(await resolvePython(dir)).toBe('python3');
  });

  it('takes the option over any virtualenv: absolute as is, a bare name for PATH, a relative path from the project root', async () => {
    const dir = await project('configured');
    venv(join(dir, '.venv'));
    expect(await resolvePython(dir, '/usr/bin/python3')).toBe('/usr/bin/python3');
    expect(await resolvePython(dir, 'python3.11')).toBe('python3.11');
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
