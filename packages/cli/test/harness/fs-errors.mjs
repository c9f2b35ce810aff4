// A pytest repository with two failures in two folders, for the filesystem-error suite: `a` in
// py/locked (the folder a test makes full, read-only or not writable), `b` in py/app. The fixer
// answers each with its fix; the fix of `a` can be made large, to fill a small disk.
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { commitFixture, writeAt } from './cli.mjs';

/** The fix of `a`, padded with a comment of `padBytes` bytes. */
export function fixOfA(padBytes = 0) {
  return `def a():\n    return 2\n${padBytes > 0 ? `# ${'x'.repeat(padBytes)}\n` : ''}`;
}

/** Writes the repository at `root`; `config` is merged into its suture.config.json. */
export async function writeFsErrorsFixture(root, { padBytes = 0, config = {} } = {}) {
  const put = (rel, content) => writeAt(root, rel, content);
  await put(
    'suture.config.json',
    `${JSON.stringify(
      {
        projects: [{ name: 'py', root: 'py', runner: 'pytest' }],
        fixers: ['./fixer.mjs'],
        reporters: ['json'],
        heal: { flakyReruns: 0, maxAttempts: 1 },
        ...config,
      },
      null,
      2,
    )}\n`,
  );
  await put(
    'fixer.mjs',
    `export default () => ({
  name: 'fs-errors-fixer',
  apiVersion: 1,
  async propose(request) {
    return request.failure.tests.some((t) => t.includes('test_a'))
      ? { verdict: 'edits', rationale: 'a returns 2', edits: [{ file: 'locked/a.py', content: ${JSON.stringify(fixOfA(padBytes))} }] }
      : { verdict: 'edits', rationale: 'b returns 3', edits: [{ file: 'app/b.py', search: 'return 0', replace: 'return 3' }] };
  },
});\n`,
  );
  await put('py/conftest.py', '');
  await put('py/locked/a.py', 'def a():\n    return 1\n');
  await put('py/app/b.py', 'def b():\n    return 0\n');
  await put('py/test_a.py', 'from locked.a import a\n\n\ndef test_a():\n    assert a() == 2\n');
  await put('py/test_b.py', 'from app.b import b\n\n\ndef test_b():\n    assert b() == 3\n');
  commitFixture(root);
}

/** Files under `dir` that an interrupted or failed atomic write leaves (`.name.suture-tmp-*`). */
export async function tempLeftovers(dir) {
  const found = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.name.includes('.suture-tmp-')) found.push(join(e.parentPath, e.name));
  return found;
}
