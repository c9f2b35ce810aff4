import { mkdir, mkdtemp, readFile, readlink, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../api/errors.js';
import { runProcess } from '../process/run-process.js';
import { NO_NAMESPACES_ENV, type IsolationSupport } from '../sandbox/support.js';
import { openWorkspace, planIsolation } from './open-workspace.js';

// Where namespaces are refused (forced here with SUTURE_NO_NAMESPACES=1), `auto` validates in a
// private copy and the sandbox is the environment allowlist alone.
let base: string;
let repo: string;
let env: NodeJS.ProcessEnv;
beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-copy-'));
  repo = join(base, 'repo');
  await mkdir(join(repo, 'src'), { recursive: true });
  await mkdir(join(repo, 'node_modules', 'dep'), { recursive: true });
  await writeFile(join(repo, 'src', 'app.py'), 'VALUE = 1\n');
  await writeFile(join(repo, 'src', 'gone.py'), 'GONE = 1\n');
  env = { ...process.env, [NO_NAMESPACES_ENV]: '1', SUTURE_STATE_DIR: join(base, 'state') };
});
afterEach(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('the copy workspace', () => {
  it('runs in a synced private copy with the patch, under the environment allowlist', async () => {
    const ws = await openWorkspace(repo, { workspace: 'auto', sandbox: 'auto', env });
    try {
      expect(ws.mode).toBe('copy');
      expect(ws.root).not.toBe(repo);
      expect(ws.isolation).toMatchObject({
        sandbox: 'env-only',
        envAllowlist: true,
        processes: 'process-group',
      });
      expect(ws.isolation.notes.join('\n')).toContain(`${NO_NAMESPACES_ENV}=1`);
      expect(await readlink(join(ws.root, 'node_modules'))).toBe(join(repo, 'node_modules'));
      await ws.apply([{ file: 'src/app.py', content: 'VALUE = 2\n' }]);
      const r = await ws.run(() =>
        runProcess('sh', ['-c', 'cat src/app.py; env'], {
          cwd: ws.root,
          env: { ...process.env, ANTHROPIC_API_KEY: 'sk-ant-api03-copy-test-value' },
          timeoutMs: 30_000,
        }),
      );
      expect(r.output).toContain('VALUE = 2');
      expect(r.output).not.toContain('ANTHROPIC');
      expect(await readFile(join(repo, 'src', 'app.py'), 'utf8')).toBe('VALUE = 1\n');
      expect(ws.diff()).toContain('+VALUE = 2');
    } finally {
      await ws.dispose();
    }
  });

  it("takes the user's changes at the next open and drops the last view's patch", async () => {
    const first = await openWorkspace(repo, { workspace: 'copy', sandbox: 'off', env });
    await first.apply([{ file: 'src/app.py', content: 'VALUE = 2\n' }]);
    await first.dispose();
    await writeFile(join(repo, 'src', 'new.py'), 'NEW = 1\n');
    await unlink(join(repo, 'src', 'gone.py'));
    const ws = await openWorkspace(repo, { workspace: 'copy', sandbox: 'off', env });
    try {
      expect((await ws.read('src/app.py'))?.toString()).toBe('VALUE = 1\n');
      expect((await ws.read('src/new.py'))?.toString()).toBe('NEW = 1\n');
      expect(await ws.read('src/gone.py')).toBeUndefined();
    } finally {
      await ws.dispose();
    }
  });
});

describe('planIsolation', () => {
  const none: IsolationSupport = {
    namespaces: false,
    overlay: false,
    network: false,
    readOnly: false,
    procMount: false,
    reasons: ['unprivileged user namespaces look disabled'],
  };
  it('refuses what the machine cannot give, naming the key and the way out', () => {
    expect(() => planIsolation('overlay', 'auto', none)).toThrow(ConfigError);
    expect(() => planIsolation('overlay', 'auto', none)).toThrow(
      /workspace "overlay" is not available.*"auto"/,
    );
    expect(() => planIsolation('auto', 'strict', none)).toThrow(
      /sandbox "strict" needs private namespaces.*"auto"/,
    );
    expect(() => planIsolation('auto', 'strict', { ...none, namespaces: true, readOnly: true })).toThrow(
      /a private network \(install iproute2/,
    );
  });
  it('falls back where asked to choose', () => {
    expect(planIsolation('auto', 'auto', none)).toMatchObject({
      mode: 'copy',
      sandboxOn: false,
      envOnly: true,
    });
    expect(planIsolation('in-place', 'off', none)).toMatchObject({
      mode: 'in-place',
      sandboxOn: false,
      envOnly: false,
    });
  });
});
