import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../process/run-process.js';
import { requireIsolation } from './isolation.test-support.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace, WorkspaceMode } from './types.js';

let base: string;
let repo: string;
let cache: string;
const open: Workspace[] = [];

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-cache-layers-'));
  repo = join(base, 'repo');
  cache = join(base, 'toolchain-cache');
  await mkdir(repo, { recursive: true });
  await mkdir(join(cache, 'ab'), { recursive: true });
  await writeFile(join(cache, 'ab', 'entry'), 'built by the user\n');
});
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.dispose();
  await rm(base, { recursive: true, force: true });
});

async function workspace(mode: WorkspaceMode, cacheLayers: string[]): Promise<Workspace> {
  const ws = await openWorkspace(repo, {
    workspace: mode,
    sandbox: 'auto',
    cacheLayers,
    sharedHome: cacheLayers,
  });
  open.push(ws);
  return ws;
}

const sh = (ws: Workspace, script: string) =>
  ws.run(() => runProcess('sh', ['-c', script], { cwd: ws.root, env: process.env, timeoutMs: 60_000 }));

describe.each(['overlay', 'in-place'] as const)("a runner's cache in the sandbox (%s workspace)", (mode) => {
  it('is read and written by the runs through a private layer the runs share; the real cache never changes', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await workspace(mode, [cache]);
    // a run reads the user's entries, writes new ones and overwrites and deletes an old one
    const first = await sh(
      ws,
      `cat ${cache}/ab/entry && mkdir -p ${cache}/cd && echo new > ${cache}/cd/entry && echo poisoned > ${cache}/ab/entry && echo ok`,
    );
    expect(first.output).toBe('built by the user\nok\n');
    // the next run of the same workspace sees what the first wrote
    expect((await sh(ws, `cat ${cache}/cd/entry ${cache}/ab/entry`)).output).toBe('new\npoisoned\n');
    // the real cache is as the user left it, during the workspace and after it
    expect(await readFile(join(cache, 'ab', 'entry'), 'utf8')).toBe('built by the user\n');
    expect((await readdir(cache)).sort()).toEqual(['ab']);
    await ws.dispose();
    open.splice(open.indexOf(ws), 1);
    expect(await readFile(join(cache, 'ab', 'entry'), 'utf8')).toBe('built by the user\n');
    expect((await readdir(cache)).sort()).toEqual(['ab']);
    // a new workspace starts from the user's cache again
    const next = await workspace(mode, [cache]);
    expect((await sh(next, `cat ${cache}/ab/entry; ls ${cache}`)).output).toBe('built by the user\nab\n');
  });

  it('stays read-only when it is only shared, not layered', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await openWorkspace(repo, { workspace: mode, sandbox: 'auto', sharedHome: [cache] });
    open.push(ws);
    const r = await sh(ws, `echo x > ${cache}/ab/entry && echo wrote || echo refused`);
    expect(r.output).toMatch(/refused/);
    expect(await readFile(join(cache, 'ab', 'entry'), 'utf8')).toBe('built by the user\n');
  });
});
