import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, runSuture, sleep, spawnSuture, tempRepoDir } from '../../harness/cli.mjs';
import { writeCrashFixture } from '../../harness/crash-trials.mjs';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await removeDir(d);
  for (const d of logs) await rm(d, { recursive: true, force: true });
});
const logs: string[] = [];

async function fixture(): Promise<string> {
  const dir = await tempRepoDir('concurrency-');
  dirs.push(dir);
  await writeCrashFixture(dir);
  return dir;
}

/** Starts `suture args` held for `ms` at `point` (SUTURE_PHASE_HOLD) and resolves once it is there. */
async function startHeld(dir: string, args: string[], point: string, ms: number) {
  const logDir = await mkdtemp(join(tmpdir(), 'suture-phases-'));
  logs.push(logDir);
  const log = join(logDir, 'phases.log');
  const child = spawnSuture(args, dir, {
    env: { SUTURE_PHASE_LOG: log, SUTURE_PHASE_HOLD: `${point}=${ms}` },
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (code) => resolve({ code, stdout, stderr })),
  );
  for (let i = 0; i < 600; i++) {
    if ((await readFile(log, 'utf8').catch(() => '')).split('\n').includes(point.split('#')[0]!))
      return { child, done };
    await sleep(50);
  }
  throw new Error(`suture never reached ${point}:\n${stderr}`);
}

describe('a user and other runs working alongside suture', () => {
  it('keeps the file the user edits while suture runs, and reports the conflict', async () => {
    const dir = await fixture();
    // Held in the re-run of the first patch to src/math.mjs (a wrong guess that will be rolled back).
    const run = await startHeld(
      dir,
      ['run', '--json', '--reporter', 'console', '--reporter', 'json'],
      'run:retry:start#1',
      4000,
    );
    const mine = 'export function add(a, b) {\n  return b + a; // the user fixed it by hand\n}\n';
    await writeFile(join(dir, 'calc/src/math.mjs'), mine);
    const { code, stdout, stderr } = await run.done;
    expect(code).toBe(1);
    expect(await readFile(join(dir, 'calc/src/math.mjs'), 'utf8')).toBe(mine);
    const report = JSON.parse(stdout);
    expect(report.conflicts).toContainEqual({
      file: 'calc/src/math.mjs',
      reason: expect.stringContaining('your version was kept'),
    });
    expect(stderr).toMatch(
      /conflict: calc\/src\/math\.mjs: changed by someone else while suture ran: your version was kept/,
    );
    await expect(stat(join(dir, '.suture/journal/manifest.json'))).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('refuses a second run and a recover while a run is live, naming its pid', async () => {
    const dir = await fixture();
    const first = await startHeld(dir, ['run'], 'run:initial:start', 12_000);
    const second = await runSuture(['run'], dir);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `another suture run \\(pid ${first.child.pid}, started .*\\) holds .*\\.suture/lock; wait for it to finish, or stop it`,
      ),
    );
    const recover = await runSuture(['recover'], dir);
    expect(recover.code).toBe(2);
    expect(recover.stderr).toContain(`pid ${first.child.pid}`);
    expect((await first.done).code).toBe(1);
  }, 120_000);

  it('takes over the stale lock of a dead run with a warning', async () => {
    const dir = await fixture();
    const dead = spawn(process.execPath, ['-e', '0']);
    await new Promise((r) => dead.on('exit', r));
    await mkdir(join(dir, '.suture'), { recursive: true });
    await writeFile(
      join(dir, '.suture/lock'),
      JSON.stringify({
        pid: dead.pid,
        hostname: hostname(),
        startedAt: '2026-01-01T00:00:00.000Z',
        runId: 'dead',
      }),
    );
    const r = await runSuture(['run', '--no-heal'], dir);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`took over a stale lock left by pid ${dead.pid}`);
    await expect(stat(join(dir, '.suture/lock'))).rejects.toThrow(/ENOENT/);
  }, 120_000);

  it('after a SIGKILL, refuses to run until recovered, then recovers over the stale lock and runs', async () => {
    const dir = await fixture();
    const before = execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' });
    const run = await startHeld(dir, ['run', '--fix'], 'write:end#1', 5000);
    run.child.kill('SIGKILL');
    await run.done;
    const blocked = await runSuture(['run'], dir);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/run `suture recover`/);
    const recovered = await runSuture(['recover'], dir);
    expect(recovered.code).toBe(0);
    expect(recovered.stdout).toMatch(/restored calc\/src\/math\.mjs/);
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: dir, encoding: 'utf8' })).toBe(before);
    expect((await runSuture(['run', '--no-heal'], dir)).code).toBe(1);
  }, 120_000);
});
