import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateEdits } from '../engine/validate.js';
import { checkRealPath } from './paths.js';

let base: string;
let root: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-paths-'));
  root = join(base, 'repo');
  await mkdir(join(root, 'src'), { recursive: true });
  await mkdir(join(base, 'sibling'));
  await writeFile(join(root, 'src/app.py'), 'x = 1\n');
  await symlink('src', join(root, 'inner'));
  await symlink('../sibling/no-such-dir', join(root, 'dangling-dir'));
  await symlink('loop-b', join(root, 'loop-a'));
  await symlink('loop-a', join(root, 'loop-b'));
});
afterAll(() => rm(base, { recursive: true, force: true }));

describe('checkRealPath', () => {
  it('accepts files and new paths that stay inside the root, through inner links too', async () => {
    expect(await checkRealPath(root, 'src/app.py')).toBeUndefined();
    expect(await checkRealPath(root, 'src/new/deeper/file.py')).toBeUndefined();
    expect(await checkRealPath(root, 'inner/app.py')).toBeUndefined();
  });

  it('refuses a new file below a symbolic link that points nowhere, or into a loop', async () => {
    expect(await checkRealPath(root, 'dangling-dir/x/new.py')).toBe('dangling-dir is a symbolic link that does not resolve');
    expect(await checkRealPath(root, 'dangling-dir/new.py')).toBe('dangling-dir is a symbolic link that does not resolve');
    expect(await checkRealPath(root, 'loop-a/new.py')).toBe('loop-a is a symbolic link that does not resolve');
  });

  it('makes such a proposal a refusal with a reason instead of a failed write', async () => {
    const result = await validateEdits({
      projectRoot: root,
      edits: [{ file: 'dangling-dir/x/new.py', content: 'y = 2\n' }],
      scope: { entries: [], excluded: [] },
      policy: { editable: 'both', allowedPaths: ['**'], deniedPaths: [], allowTestWeakening: false, allowNewFiles: true, maxFilesPerAttempt: 5 },
    });
    expect(result).toEqual({ ok: false, reason: 'edit 1: dangling-dir is a symbolic link that does not resolve' });
  });
});
