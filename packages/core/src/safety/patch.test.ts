import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileDiff, gitApplyCommand } from './patch.js';

let top: string;
beforeEach(async () => {
  top = await mkdtemp(join(tmpdir(), 'suture-patch-'));
});
afterEach(async () => {
  await rm(top, { recursive: true, force: true });
});

/** A repository whose suture root is `examples/app`, with a check-mode patch in its run folder. */
async function setup(gitInit: boolean): Promise<{ root: string; patch: string }> {
  const root = join(top, 'examples', 'app');
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/a.py'), 'x = 1\n');
  if (gitInit) execFileSync('git', ['init', '-q'], { cwd: top });
  const patch = join(root, '.suture/runs/r1/fixes.patch');
  await mkdir(join(patch, '..'), { recursive: true });
  await writeFile(patch, fileDiff('src/a.py', 'x = 1\n', 'x = 2\n'));
  return { root, patch };
}

const apply = (command: string, cwd: string): void =>
  void execFileSync('sh', ['-c', command], { cwd, stdio: 'pipe' });

describe('gitApplyCommand', () => {
  it.each([
    ['the top level', ''],
    ['the suture root', 'examples/app'],
    ['a folder outside the root', 'examples'],
  ])(
    'prints a command that applies the patch when typed in %s of a repository whose root is a subfolder',
    async (_name, from) => {
      const { root, patch } = await setup(true);
      const cwd = join(top, from);
      const command = gitApplyCommand(root, patch, cwd);
      apply(command, cwd);
      expect(await readFile(join(root, 'src/a.py'), 'utf8')).toBe('x = 2\n');
    },
  );

  it('is a plain git apply from a root that is the top level, and works outside any repository', async () => {
    const { root, patch } = await setup(false);
    const command = gitApplyCommand(root, patch, root);
    expect(command).toBe('git apply .suture/runs/r1/fixes.patch');
    apply(command, root);
    expect(await readFile(join(root, 'src/a.py'), 'utf8')).toBe('x = 2\n');
  });

  it('names the subfolder with --directory', async () => {
    const { root, patch } = await setup(true);
    expect(gitApplyCommand(root, patch, top)).toBe(
      'git apply --directory=examples/app examples/app/.suture/runs/r1/fixes.patch',
    );
  });
});
