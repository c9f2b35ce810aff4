import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../process/run-process.js';
import { requireIsolation } from './isolation.test-support.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace } from './types.js';

let repo: string;
const open: Workspace[] = [];

beforeEach(async () => {
  repo = await mkdtemp(join(tmpdir(), 'suture-in-place-'));
  await mkdir(join(repo, 'src'));
  await writeFile(join(repo, 'src', 'app.py'), 'VALUE = 1\n');
  execFileSync('git', ['init', '-q'], { cwd: repo });
  execFileSync('git', ['add', '-A'], { cwd: repo });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], { cwd: repo });
});
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.dispose();
  await rm(repo, { recursive: true, force: true });
});

async function inPlace(sandbox: 'strict' | 'off'): Promise<Workspace> {
  const ws = await openWorkspace(repo, { workspace: 'in-place', sandbox, repoRoot: repo });
  open.push(ws);
  return ws;
}

const sh = (ws: Workspace, script: string): ReturnType<typeof runProcess> =>
  ws.run(() => runProcess('sh', ['-c', script], { cwd: ws.root, env: process.env, timeoutMs: 60_000 }));

const HOSTILE =
  "printf '#!/bin/sh\\n' > .git/hooks/post-checkout && chmod +x .git/hooks/post-checkout && echo hook-written; " +
  'echo planted > src/planted.py; echo VALUE = 2 > src/app.py; echo done';

describe('the in-place workspace', () => {
  it("keeps the project's .git read-only to the runs in the sandbox, and puts back what they wrote", async (t) => {
    await requireIsolation(t);
    const ws = await inPlace('strict');
    const r = await sh(ws, HOSTILE);
    expect(r.output).toContain('done');
    expect(r.output).not.toContain('hook-written');
    expect(ws.takeUndone!().map((c) => `${c.change} ${c.file}`)).toEqual([
      'modified src/app.py',
      'created src/planted.py',
    ]);
    expect(await readFile(join(repo, 'src/app.py'), 'utf8')).toBe('VALUE = 1\n');
    expect(await stat(join(repo, '.git/hooks/post-checkout')).catch(() => undefined)).toBeUndefined();
  });

  it('without a sandbox, puts back the hook too, and names it', async () => {
    const ws = await inPlace('off');
    const r = await sh(ws, HOSTILE);
    expect(r.output).toContain('hook-written');
    expect(ws.takeUndone!().map((c) => `${c.change} ${c.file}`)).toEqual([
      'modified src/app.py',
      'created src/planted.py',
      'created .git/hooks/post-checkout',
    ]);
    expect(await stat(join(repo, '.git/hooks/post-checkout')).catch(() => undefined)).toBeUndefined();
    expect(
      execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
        cwd: repo,
        encoding: 'utf8',
      }),
    ).toBe('');
  });
});
