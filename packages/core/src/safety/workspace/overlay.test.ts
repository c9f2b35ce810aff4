import { createServer, type Server } from 'node:net';
import { chmod, mkdir, mkdtemp, readFile, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeIgnoredDir } from '../ignored-dir.js';
import { runProcess } from '../process/run-process.js';
import { requireIsolation } from './isolation.test-support.js';
import { openWorkspace } from './open-workspace.js';
import type { Workspace } from './types.js';

let base: string;
let repo: string;
let outside: string;
let work: string;
const open: Workspace[] = [];

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'suture-ws-'));
  repo = join(base, 'repo');
  outside = join(base, 'outside');
  work = join(repo, '.suture', 'runs', 'r1', 'work', 'p');
  await mkdir(join(repo, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(repo, 'src', 'app.py'), 'VALUE = 1\n');
});
afterEach(async () => {
  for (const ws of open.splice(0)) await ws.dispose();
  await rm(base, { recursive: true, force: true });
});

async function overlay(options: Parameters<typeof openWorkspace>[1] = {}): Promise<Workspace> {
  const ws = await openWorkspace(repo, {
    workspace: 'overlay',
    sandbox: 'auto',
    writable: [work],
    ...options,
  });
  open.push(ws);
  return ws;
}

const sh = (ws: Workspace, script: string, env: NodeJS.ProcessEnv = process.env) =>
  ws.run(() => runProcess('sh', ['-c', script], { cwd: ws.root, env, timeoutMs: 60_000 }));

/**
 * How long the helpers these tests start sleep: a number no other test on the machine uses, so
 * that `sleeps` sees only this file's helpers while other suites run beside it.
 */
const SLEEP = `300.${process.pid}`;

/** The pids of the machine's live helpers of this file (`sleep ${SLEEP}`). */
async function sleeps(): Promise<string[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n));
  const commands = await Promise.all(pids.map((n) => readFile(`/proc/${n}/cmdline`, 'utf8').catch(() => '')));
  return pids.filter((_, i) => commands[i] === `sleep\u0000${SLEEP}\u0000`);
}

describe('the overlay workspace', () => {
  it('runs see the patch at the project path; the user tree is never written', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await overlay();
    expect(ws.mode).toBe('overlay');
    expect(ws.root).toBe(repo);
    await ws.apply([{ file: 'src/app.py', content: 'VALUE = 2\n' }]);
    const r = await sh(ws, 'cat src/app.py; echo made > src/new.txt; rm src/app.py; pwd');
    expect(r.exitCode).toBe(0);
    expect(r.output).toContain('VALUE = 2');
    expect(r.output).toContain(repo);
    expect(await readFile(join(repo, 'src', 'app.py'), 'utf8')).toBe('VALUE = 1\n');
    await expect(stat(join(repo, 'src', 'new.txt'))).rejects.toThrow(/ENOENT/);
    expect((await ws.read('src/new.txt'))?.toString()).toBe('made\n');
    expect(await ws.read('src/app.py')).toBeUndefined();
    expect(ws.diff()).toContain('+VALUE = 2');
  });

  it("pins a file as it is: the user's later edits do not reach the view, its bytes, mode and times do not change", async (t) => {
    await requireIsolation(t, { overlay: true });
    const file = join(repo, 'src', 'app.py');
    await chmod(file, 0o640);
    await utimes(file, new Date(1_600_000_000_000), new Date(1_600_000_000_000));
    const ws = await overlay();
    await ws.pin(['src/app.py', 'src/missing.py']);
    await writeFile(file, 'VALUE = "edited by the user"\n');
    expect((await ws.read('src/app.py'))?.toString()).toBe('VALUE = 1\n');
    const r = await sh(ws, 'stat -c "%a %Y" src/app.py');
    expect(r.output.trim()).toBe('640 1600000000');
    expect(await ws.read('src/missing.py')).toBeUndefined();
    expect(await readFile(file, 'utf8')).toBe('VALUE = "edited by the user"\n');
  });

  it("keeps suture's build folders and the run's scratch folder real and writable", async (t) => {
    await requireIsolation(t, { overlay: true });
    await makeIgnoredDir(join(repo, 'build-suture'), { owned: true });
    const ws = await overlay();
    // A folder suture makes after the view is up is bound in before the next run too.
    await makeIgnoredDir(join(repo, 'build-later'), { owned: true });
    const r = await sh(
      ws,
      `echo obj > build-suture/app.o && echo obj > build-later/x.o && echo report > ${work}/report.json`,
    );
    expect(r.output).toBe('');
    expect(r.exitCode).toBe(0);
    expect(await readFile(join(repo, 'build-suture', 'app.o'), 'utf8')).toBe('obj\n');
    expect(await readFile(join(repo, 'build-later', 'x.o'), 'utf8')).toBe('obj\n');
    expect(await readFile(join(work, 'report.json'), 'utf8')).toBe('report\n');
  });

  it('sets back what a patched view built, so the next build of the folder recompiles it from the user bytes', async (t) => {
    await requireIsolation(t, { overlay: true });
    await makeIgnoredDir(join(repo, 'build-suture'), { owned: true });
    const old = Date.now() / 1000 - 1000;
    await writeFile(join(repo, 'build-suture', 'untouched.o'), 'old\n');
    await utimes(join(repo, 'build-suture', 'untouched.o'), old, old);
    const ws = await overlay();
    await ws.apply([{ file: 'src/app.py', content: 'VALUE = 2\n' }]);
    // A "build" in the view: an output made from the patched source.
    await sh(
      ws,
      'cp src/app.py build-suture/app.o && mkdir -p build-suture/a/b && cp src/app.py build-suture/a/b/deep.o',
    );
    await ws.dispose();
    open.splice(open.indexOf(ws), 1);
    const output = await stat(join(repo, 'build-suture', 'app.o'));
    expect(await readFile(join(repo, 'build-suture', 'app.o'), 'utf8')).toBe('VALUE = 2\n');
    // Older than the user's own source: make and ninja take it as out of date.
    const source = (await stat(join(repo, 'src', 'app.py'))).mtimeMs;
    expect(output.mtimeMs).toBeLessThan(source);
    expect((await stat(join(repo, 'build-suture', 'a', 'b', 'deep.o'))).mtimeMs).toBeLessThan(source);
    // What the view did not make keeps its time.
    expect((await stat(join(repo, 'build-suture', 'untouched.o'))).mtimeMs).toBeCloseTo(old * 1000, -3);
  });

  it('removes its layers when disposed', async (t) => {
    await requireIsolation(t, { overlay: true });
    const env = { ...process.env, SUTURE_STATE_DIR: join(base, 'state') };
    const ws = await openWorkspace(repo, { workspace: 'overlay', sandbox: 'off', env });
    await ws.apply([{ file: 'src/app.py', content: 'VALUE = 3\n' }]);
    await ws.dispose();
    // the state folder holds the project's folder (and the sweep's stamp)
    const project = (await readdir(join(base, 'state'))).find((n) => n.startsWith('ws-'));
    expect(project).toBeDefined();
    expect((await readdir(join(base, 'state', project!))).filter((n) => n.startsWith('view-'))).toEqual([]);
  });
});

describe('the sandbox around the runs', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('gives a run no secret, no network beyond its own loopback and no write outside the workspace', async (t) => {
    await requireIsolation(t, { overlay: true, network: true });
    server = createServer((s) => s.end('reached\n'));
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    const ws = await overlay({ sandbox: 'strict' });
    expect(ws.isolation).toMatchObject({
      sandbox: 'strict',
      network: true,
      readOnly: true,
      envAllowlist: true,
    });
    const env = {
      ...process.env,
      ANTHROPIC_API_KEY: 'sk-ant-api03-planted-secret-value',
      SERVICE_TOKEN: 'planted-token-value-123',
      INNOCENT: 'planted-token-value-123',
      PATH: process.env.PATH,
    };
    const r = await sh(
      ws,
      `env; echo x > ${outside}/leak.txt; echo x > $HOME/.suture-leak; ` +
        `node -e "require('net').connect(${port}, '127.0.0.1').on('data', d => process.stdout.write(String(d))).on('error', e => console.log('net:', e.code))"; ` +
        'echo tmp > "$TMPDIR/ok" && echo private-tmp-ok',
      env,
    );
    expect(r.output).not.toContain('planted');
    expect(r.output).not.toContain('ANTHROPIC');
    expect(r.output).toMatch(/PATH=/);
    expect(r.output).toMatch(/Read-only file system/);
    expect(r.output).toContain('net: ECONNREFUSED');
    expect(r.output).not.toContain('reached');
    expect(r.output).toContain('private-tmp-ok');
    await expect(stat(join(outside, 'leak.txt'))).rejects.toThrow(/ENOENT/);
  });

  it('ends every process a run started, setsid and daemonised ones included', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await overlay();
    const pids = join(work, 'pids');
    await mkdir(work, { recursive: true });
    // A machine's other users may have a sleep of their own going: only new ones count.
    const before = new Set(await sleeps());
    const r = await sh(
      ws,
      `setsid sh -c 'echo $$ >> ${pids}; exec sleep ${SLEEP}' & ` +
        `(sh -c 'trap "" TERM HUP; echo $$ >> ${pids}; exec sleep ${SLEEP}' &) ; sleep 0.5; echo started`,
    );
    expect(r.output).toContain('started');
    const lines = (await readFile(pids, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(2);
    // The pids are the run's own namespace's: none of them may be a live sleep out here.
    expect((await sleeps()).filter((pid) => !before.has(pid))).toEqual([]);
  });

  it("starts a run's commands in one PID namespace of the run's own, which ends with the run", async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await overlay();
    await mkdir(work, { recursive: true });
    const before = new Set(await sleeps());
    const helper = join(work, 'helper');
    const opts = { cwd: ws.root, env: process.env, timeoutMs: 60_000 };
    const alive = `kill -0 "$(cat ${helper})" 2>/dev/null && echo alive || echo gone`;
    const { first, second } = await ws.run(async () => ({
      first: await runProcess(
        'sh',
        ['-c', `setsid sh -c 'echo $$ > ${helper}; exec sleep ${SLEEP}' >/dev/null 2>&1 & sleep 0.2`],
        opts,
      ),
      // the helper the first command left is in the namespace the second one sees
      second: await runProcess('sh', ['-c', alive], opts),
    }));
    expect(first.exitCode).toBe(0);
    expect(second.output).toBe('alive\n');
    expect((await sleeps()).filter((pid) => !before.has(pid))).toEqual([]);
    // the next run has a namespace of its own: the helper's pid means nothing there
    expect((await sh(ws, alive)).output).toBe('gone\n');
    // a namespace its run left nothing in serves the next run; one with a helper left does not
    const ns = async (script = ''): Promise<string> =>
      (await sh(ws, `${script}readlink /proc/self/ns/pid`)).output;
    const clean = await ns();
    expect(await ns()).toBe(clean);
    const left = await ns(`setsid sleep ${SLEEP} >/dev/null 2>&1 & `);
    expect(left).toBe(clean);
    expect(await ns()).not.toBe(left);
    expect((await sleeps()).filter((pid) => !before.has(pid))).toEqual([]);
  });

  it('ends at once what a command left holding its output, when no other command of the run is going', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await overlay();
    await mkdir(work, { recursive: true });
    const helper = join(work, 'helper');
    const opts = { cwd: ws.root, env: process.env, timeoutMs: 60_000 };
    const { held, next } = await ws.run(async () => ({
      held: await runProcess(
        'sh',
        ['-c', `setsid sh -c 'echo $$ > ${helper}; exec sleep ${SLEEP}' & sleep 0.2; echo done`],
        opts,
      ),
      next: await runProcess(
        'sh',
        ['-c', `kill -0 "$(cat ${helper})" 2>/dev/null && echo alive || echo gone`],
        opts,
      ),
    }));
    expect(held.output).toBe('done\n');
    // well under the second runProcess waits for output a helper holds
    expect(held.durationMs).toBeLessThan(900);
    expect(next.output).toBe('gone\n');
  });

  it('reports a death by signal as the signal', async (t) => {
    await requireIsolation(t, { overlay: true });
    const ws = await overlay();
    const r = await sh(ws, 'kill -SEGV $$');
    expect(r.signal).toBe('SIGSEGV');
    expect(r.exitCode).toBeNull();
    const missing = await ws.run(() =>
      runProcess('no-such-command-xyz', [], { cwd: ws.root, env: process.env, timeoutMs: 10_000 }),
    );
    expect(missing.spawnError).toMatch(/ENOENT/);
  });
});
