import { execFileSync } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import pytest from '../../../src/index.js';
import { cleanUp, copyOf, exec, runIn, statusById, tempDir } from '../kit/project.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const shellPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8',
}).trim();
const savedPath = process.env.PATH;

afterEach(() => {
  process.env.PATH = savedPath;
});
afterAll(cleanUp);

/** A python3 without pytest: a virtualenv made with no packages at all. */
async function barePython(): Promise<string> {
  const bare = await tempDir('bare');
  expect((await exec(shellPython, ['-m', 'venv', '--without-pip', bare], { cwd: bare })).code).toBe(0);
  return join(bare, 'bin', 'python3');
}

/** PATH as `nx run` and npm scripts give a task: node_modules/.bin folders and Node's own in front. */
async function taskRunnerPath(root: string, python: string, rest: string): Promise<string> {
  const bin = join(root, 'node_modules', '.bin');
  await mkdir(bin, { recursive: true });
  await symlink(python, join(bin, 'python3'));
  return [bin, dirname(process.execPath), rest].join(delimiter);
}

describe('the interpreter under a Node task runner', () => {
  it("runs the shell's python3, not one a node_modules/.bin put in front of it", async () => {
    const root = await copyOf(here, 'plain');
    process.env.PATH = await taskRunnerPath(
      root,
      await barePython(),
      [dirname(shellPython), savedPath].join(delimiter),
    );
    const result = await runIn(pytest(), root);
    expect(result.status).toBe('passed');
    expect(statusById(result)).toEqual({ 'tests/test_plain.py::test_runs': 'passed' });
  });

  it('names the absolute interpreter it ran, and how to choose another, when the one the shell finds lacks pytest', async () => {
    const root = await copyOf(here, 'plain');
    const bare = await barePython();
    process.env.PATH = await taskRunnerPath(root, shellPython, [dirname(bare), savedPath].join(delimiter));
    const result = await runIn(pytest(), root);
    expect(result.status).toBe('error');
    expect(result.error).toBe(
      `pytest is not installed for ${bare}; install it with \`${bare} -m pip install pytest\`, or set the runner option "python" to the interpreter that has it, or create the project's .venv`,
    );
  });
});
