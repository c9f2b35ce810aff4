import { execFileSync, spawn } from 'node:child_process';
import { access, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanup, cliEnv, workspace } from './cli-support.js';

afterAll(cleanup);

/** A pytest project whose second test signals that it started, then runs for a minute. */
async function repo(): Promise<{ dir: string; started: string }> {
  const dir = await workspace();
  const started = join(dir, 'started');
  await mkdir(join(dir, 'app'));
  await writeFile(
    join(dir, 'app/test_slow.py'),
    [
      'import pathlib, time',
      '',
      '',
      'def test_quick():',
      '    assert 1 + 1 == 2',
      '',
      '',
      'def test_long():',
      `    pathlib.Path(${JSON.stringify(started)}).write_text("x")`,
      '    time.sleep(60)',
      '',
    ].join('\n'),
  );
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: ['hints'],
      reporters: ['console', 'json'],
    }),
  );
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@e', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x');
  return { dir, started };
}

interface Running {
  ended: () => boolean;
  stderr: () => string;
  exit: Promise<number | null>;
  kill: (signal: NodeJS.Signals) => void;
}

function start(args: string[], cwd: string): Running {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: cliEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.resume();
  let ended = false;
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      ended = true;
      resolve(code);
    }),
  );
  return { ended: () => ended, stderr: () => stderr, exit, kill: (s) => void child.kill(s) };
}

async function until(what: () => Promise<boolean>, run: Running): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await what()) return;
    if (run.ended()) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`suture ended or took two minutes first:\n${run.stderr()}`);
}

interface Report {
  exitCode: number;
  cancelled?: boolean;
  error?: string;
  projects: Array<{
    status: string;
    failures: Array<{ failure: { kind: string; tests: string[] } }>;
    rounds: Array<{ kind: string; tests: Array<{ id: string; status: string; message?: string }> }>;
  }>;
}

async function lastReport(dir: string): Promise<{ runId: string; report: Report }> {
  const [runId] = (await readdir(join(dir, '.suture/runs'))).sort().reverse();
  const report = JSON.parse(
    await readFile(join(dir, '.suture/runs', runId!, 'report.json'), 'utf8'),
  ) as Report;
  return { runId: runId!, report };
}

/** What a cancelled run must say: 130, cancelled, no error, and the cut test not finished rather than failed. */
function expectCancelled(report: Report): void {
  expect(report.exitCode).toBe(130);
  expect(report.cancelled).toBe(true);
  expect(report.error).toBeUndefined();
  const [app] = report.projects;
  expect(app!.status).toBe('cancelled');
  expect(app!.failures.map((f) => f.failure.kind)).not.toContain('timeout');
  expect(app!.failures.flatMap((f) => f.failure.tests)).not.toContain('test_slow.py::test_long');
  const initial = app!.rounds.find((r) => r.kind === 'initial')!;
  expect(initial.tests.find((t) => t.id === 'test_slow.py::test_long')).toMatchObject({
    status: 'skipped',
    message: 'not finished: cancelled',
  });
  expect(initial.tests.find((t) => t.id === 'test_slow.py::test_quick')?.status).toBe('passed');
}

const exists = (file: string) => async (): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

describe('a cancelled run is not an error', () => {
  it('SIGINT while a test runs: exit 130, report.json says cancelled, the test is not a timeout', async () => {
    const { dir, started } = await repo();
    const run = start(['run'], dir);
    await until(exists(started), run);
    run.kill('SIGINT');
    expect(await run.exit).toBe(130);
    const { report } = await lastReport(dir);
    expectCancelled(report);
    expect(run.stderr()).toMatch(/^cancelled: /m);
  }, 180_000);

  it('the dashboard cancel: exit 130, and `suture ui` lists the run as cancelled, not as exit 3', async () => {
    const { dir, started } = await repo();
    const run = start(['run', '--ui'], dir);
    await until(async () => /live dashboard at \S+/.test(run.stderr()), run);
    const url = new URL(/live dashboard at (\S+)/.exec(run.stderr())![1]!);
    await until(exists(started), run);
    const cancel = await fetch(new URL(`/api/cancel?token=${url.searchParams.get('token')!}`, url), {
      method: 'POST',
    });
    expect(cancel.status).toBe(202);
    expect(await run.exit).toBe(130);
    const { runId, report } = await lastReport(dir);
    expectCancelled(report);

    const ui = start(['ui'], dir);
    await until(async () => /at http:\/\/127\.0\.0\.1:\d+\/\?token=\S+/.test(ui.stderr()), ui);
    const uiUrl = new URL(/at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(ui.stderr())![1]!);
    const runs = (await (
      await fetch(new URL(`/api/runs?token=${uiUrl.searchParams.get('token')!}`, uiUrl))
    ).json()) as Array<{ runId: string; exitCode: number; cancelled?: boolean }>;
    expect(runs.map((r) => [r.runId, r.exitCode, r.cancelled])).toEqual([[runId, 130, true]]);
    ui.kill('SIGINT');
    expect(await ui.exit).toBe(0);
  }, 180_000);
});
