import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireIsolation } from '../../../../core/src/safety/workspace/isolation.test-support.js';
import { removeDir, runSuture, tempRepoDir } from '../../harness/cli.mjs';
import { FIXED, MATH, writeWorkspaceFixture } from '../../harness/workspace.mjs';

// A patch under validation that, besides fixing add, tries to leave something behind in the
// user's real tree by its absolute path: an executable git hook (run by the user's next
// checkout), a file of its own, and a rewritten test. Whatever the workspace mode and sandbox,
// check mode ends with the tree and .git byte for byte as they were.
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
});

function hostilePatch(repo: string): string {
  return `import { writeFileSync } from 'node:fs';
const at = (rel, text, mode) => { try { writeFileSync(${JSON.stringify(repo)} + '/' + rel, text, { mode }); } catch {} };
at('.git/hooks/post-checkout', '#!/bin/sh\\necho owned\\n', 0o755);
at('calc/planted.mjs', 'export const planted = true;\\n', 0o644);
at('calc/tests/mul.test.mjs', '// the run rewrote this test\\n', 0o644);
${FIXED}`;
}

/** Every file of the tree and of .git but its object store, hashed with its mode, and git's status. */
async function fingerprint(root: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const files = await readdir(root, { recursive: true });
  for (const rel of files.map(String).sort()) {
    if (/^\.git\/(objects|logs)\//.test(rel) || rel === '.git/index' || rel.startsWith('.suture/')) continue;
    const s = await stat(join(root, rel));
    if (!s.isFile()) continue;
    const hash = createHash('sha256')
      .update(await readFile(join(root, rel)))
      .digest('hex');
    out[rel] = `${hash} ${(s.mode & 0o777).toString(8)}`;
  }
  out['(git status --porcelain --ignored)'] = execFileSync(
    'git',
    ['status', '--porcelain', '--ignored', '--untracked-files=all'],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\n')
    // suture's own run folder, which hides itself from git
    .filter((line) => !line.startsWith('!! .suture/'))
    .join('\n');
  return out;
}

const ALL = [
  'created .git/hooks/post-checkout',
  'created calc/planted.mjs',
  'modified calc/tests/mul.test.mjs',
];
/** What each mode lets the patch write in the real tree: the strict sandbox keeps all outside the workspace read-only. */
const MODES = [
  { workspace: 'in-place', sandbox: 'off', reaches: ALL },
  { workspace: 'in-place', sandbox: 'strict', reaches: ALL.slice(1) },
  { workspace: 'copy', sandbox: 'off', reaches: ALL },
  { workspace: 'copy', sandbox: 'strict', reaches: [] },
  { workspace: 'overlay', sandbox: 'strict', reaches: [] },
  // the view covers the project's path, but not the repository's .git above it
  { workspace: 'overlay', sandbox: 'off', reaches: ALL.slice(0, 1) },
] as const;

describe('a patch that writes the real tree and .git while it is validated', () => {
  for (const { workspace, sandbox, reaches } of MODES)
    it(`leaves both byte-identical in check mode (workspace ${workspace}, sandbox ${sandbox}) and names what it undid`, async (t) => {
      if (sandbox === 'strict' || workspace === 'overlay')
        await requireIsolation(t, { overlay: workspace === 'overlay' });
      const dir = await tempRepoDir('tree-untouched-');
      dirs.push(dir);
      await writeWorkspaceFixture(dir, { patch: hostilePatch(dir), config: { workspace, sandbox } });
      const before = await fingerprint(dir);
      const r = await runSuture(['run', '--json'], dir);
      const report = JSON.parse(r.stdout);
      expect(report.isolation.workspace, r.stderr).toBe(workspace);
      expect(report.projects[0].failures[0].outcome, r.stderr).toBe('healed');
      expect(await fingerprint(dir)).toEqual(before);
      const undone = report.projects[0].rounds.flatMap(
        (round: { undone?: { file: string; change: string; restored: boolean }[] }) => round.undone ?? [],
      );
      // where the patched code could write the real tree, every change it made is named as put back
      const named = new Set(undone.map((u: { file: string; change: string }) => `${u.change} ${u.file}`));
      expect([...named].sort()).toEqual([...reaches]);
      expect(undone.every((u: { restored: boolean }) => u.restored)).toBe(true);
      for (const reached of reaches) {
        const [change, file] = reached.split(' ');
        expect(r.stderr).toContain(`${file} (${change})`);
      }
    }, 180_000);
});

describe('a heal written in place with --fix', () => {
  it("stays: the journal's writes are suture's own, not a run's, and nothing is reported undone", async () => {
    const dir = await tempRepoDir('tree-untouched-fix-');
    dirs.push(dir);
    await writeWorkspaceFixture(dir, { config: { workspace: 'in-place', sandbox: 'off' } });
    const r = await runSuture(['run', '--fix', '--json'], dir);
    const report = JSON.parse(r.stdout);
    expect(report.projects[0].failures[0].outcome, r.stderr).toBe('healed');
    expect(await readFile(join(dir, 'calc/src/math.mjs'), 'utf8')).toBe(FIXED);
    expect(FIXED).not.toBe(MATH);
    expect(report.projects[0].rounds.flatMap((round: { undone?: unknown[] }) => round.undone ?? [])).toEqual(
      [],
    );
  }, 180_000);
});
