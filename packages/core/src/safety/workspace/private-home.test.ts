import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runProcess } from '../process/run-process.js';
import { requireIsolation } from './isolation.test-support.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace, WorkspaceOptions } from './types.js';

let base: string;
let home: string;
let repo: string;
let work: string;
const open: Workspace[] = [];
const AWS = 'aws-home-planted-secret-0101';

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-home-'));
  // The user's home, with credentials, a toolchain and a cache the config shares.
  home = join(base, 'home', 'dev');
  repo = join(home, 'code', 'repo');
  work = join(repo, '.suture', 'runs', 'r1', 'work', 'p');
  await mkdir(join(home, '.aws'), { recursive: true });
  await writeFile(join(home, '.aws', 'credentials'), `[default]\naws_secret_access_key = ${AWS}\n`);
  await writeFile(join(home, '.npmrc'), `//registry.npmjs.org/:_authToken=${AWS}-npm\n`);
  await mkdir(join(home, '.pyenv', 'versions'), { recursive: true });
  await writeFile(join(home, '.pyenv', 'version'), 'system\n');
  await mkdir(join(home, 'go', 'pkg', 'mod'), { recursive: true });
  await writeFile(join(home, '.gitconfig'), '[user]\n\tname = Planted Dev\n');
  // the project's virtualenv where the user made it, and one where Poetry makes them
  await mkdir(join(home, 'envs', 'app'), { recursive: true });
  await writeFile(join(home, 'envs', 'app', 'pyvenv.cfg'), 'venv-of-the-project\n');
  await mkdir(join(home, '.cache', 'pypoetry', 'virtualenvs', 'p'), { recursive: true });
  await writeFile(join(home, '.cache', 'pypoetry', 'virtualenvs', 'p', 'pyvenv.cfg'), 'poetry-venv\n');
  await mkdir(join(home, '.cache', 'pip'), { recursive: true });
  await writeFile(join(home, '.cache', 'pip', 'wheel'), 'cached\n');
  await mkdir(join(home, 'code', 'other'), { recursive: true });
  await writeFile(join(home, 'code', 'other', 'notes'), `${AWS}-other\n`);
  await mkdir(join(repo, 'src'), { recursive: true });
  await writeFile(join(repo, 'src', 'app.py'), 'VALUE = 1\n');
});
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.dispose();
  await rm(base, { recursive: true, force: true });
});

async function workspace(options: WorkspaceOptions): Promise<Workspace> {
  const ws = await openWorkspace(repo, {
    sandbox: 'auto',
    writable: [work],
    home: join(work, 'home'),
    sharedHome: ['~/.cache/pip'],
    env: { ...process.env, HOME: home, VIRTUAL_ENV: join(home, 'envs', 'app') },
    ...options,
  });
  open.push(ws);
  return ws;
}

const sh = (ws: Workspace, script: string) =>
  ws.run(() =>
    runProcess('sh', ['-c', script], {
      cwd: ws.root,
      env: { ...process.env, HOME: home },
      timeoutMs: 60_000,
    }),
  );

const probe = (): string =>
  [
    'echo "home=$HOME"',
    `cat ~/.aws/credentials ${home}/.aws/credentials ${home}/.npmrc ${home}/code/other/notes 2>&1`,
    `python3 -c "import os; print('expanded=' + os.path.expanduser('~'))"`,
    `cat ${home}/.cache/pip/wheel ${home}/.pyenv/version ${home}/envs/app/pyvenv.cfg ${home}/.cache/pypoetry/virtualenvs/p/pyvenv.cfg`,
    'echo "gopath=$GOPATH"',
    'echo "git-user=$(git config --global user.name)"',
    'echo hi > ~/made && echo home-writable',
  ].join('; ');

describe("the sandbox's private HOME", () => {
  for (const workspaceMode of ['overlay', 'copy'] as const)
    it(`hides the real home's credentials from tested code, keeps its toolchains (${workspaceMode})`, async (t) => {
      await requireIsolation(t, { overlay: workspaceMode === 'overlay' });
      const ws = await workspace({ workspace: workspaceMode });
      const r = await sh(ws, probe());
      expect(r.output).not.toContain(AWS);
      expect(r.output).toContain(`home=${join(work, 'home')}`);
      expect(r.output).toContain(`expanded=${join(work, 'home')}`);
      // what toolchains need stays, read-only: the shared cache, pyenv's folder, Go's (pinned by GOPATH)
      expect(r.output).toContain('cached');
      expect(r.output).toContain('system');
      expect(r.output).toContain('venv-of-the-project');
      expect(r.output).toContain('poetry-venv');
      expect(r.output).toContain(`gopath=${join(home, 'go')}`);
      // a test that commits still has the user's identity
      expect(r.output).toContain('git-user=Planted Dev');
      expect(r.output).toContain('home-writable');
      // the private HOME was the runs' alone, and the real one is untouched
      expect(await readdir(home)).not.toContain('made');
    });

  it('moves HOME even where no namespace can cover the real one', async () => {
    const ws = await workspace({
      workspace: 'copy',
      env: { ...process.env, HOME: home, SUTURE_NO_NAMESPACES: '1' },
    });
    expect(ws.isolation.sandbox).toBe('env-only');
    const r = await sh(ws, probe());
    expect(r.output).toContain(`home=${join(work, 'home')}`);
    expect(r.output).toContain(`expanded=${join(work, 'home')}`);
    expect(r.output).toContain('No such file');
  });

  it('is the real one with the sandbox off', async () => {
    const ws = await workspace({ workspace: 'in-place', sandbox: 'off' });
    const r = await sh(ws, 'echo "home=$HOME"');
    expect(r.output).toContain(`home=${home}`);
  });

  it("runs the toolchains a user installed in the real home, as they run outside (with the user's own HOME)", async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await openWorkspace(repo, {
      workspace: 'overlay',
      sandbox: 'auto',
      writable: [work],
      home: join(work, 'home'),
    });
    open.push(ws);
    const commands = [
      'python3 -c "import pytest, sys; print(sys.executable)"',
      'node -e "console.log(process.version)"',
      'cmake --version',
      'ninja --version',
      'g++ --version',
      'go version && go env GOMODCACHE',
      'cargo --version && rustc --version',
    ];
    const outside = await Promise.all(
      commands.map((c) => runProcess('sh', ['-c', c], { cwd: repo, env: process.env, timeoutMs: 60_000 })),
    );
    const here = commands.filter((_, i) => outside[i]!.exitCode === 0);
    // this machine has at least Python and Node (the tests of this package need them)
    expect(here.length).toBeGreaterThanOrEqual(2);
    for (const c of here) {
      const r = await ws.run(() =>
        runProcess('sh', ['-c', c], { cwd: ws.root, env: process.env, timeoutMs: 60_000 }),
      );
      expect(r.exitCode, `${c}: ${r.output}`).toBe(0);
    }
  });
});
