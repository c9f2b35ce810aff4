import { execFileSync } from 'node:child_process';
import { access, mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, REPO, spawnSuture, suture, workspace } from './cli-support.js';

afterAll(cleanup);

const PY_FIXTURE = join(REPO, 'packages/runner-pytest/test/e2e/shop');

async function repo(): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'app'));
  execFileSync('cp', ['-a', `${PY_FIXTURE}/.`, join(dir, 'app')]);
  // slow tests: the run lasts long enough to be watched and cancelled
  await writeFile(
    join(dir, 'app/conftest.py'),
    'import time\n\n\ndef pytest_runtest_setup(item):\n    time.sleep(0.3)\n',
  );
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: ['hints'],
      reporters: ['json', 'html'],
      heal: { flakyReruns: 0 },
    }),
  );
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.email=t@e', '-c', 'user.name=t', 'add', '-A');
  git('-c', 'user.email=t@e', '-c', 'user.name=t', 'commit', '-qm', 'x');
  return dir;
}

/** Starts `suture` and resolves with the dashboard address it prints, the process and its exit. */
async function started(args: string[], dir: string, pattern: RegExp) {
  const child = spawnSuture(args, dir);
  let stderr = '';
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = pattern.exec(stderr);
      if (m) resolve(new URL(m[1]!));
    });
    void exit.then((code) =>
      reject(new Error(`suture exited ${code} before printing an address:\n${stderr}`)),
    );
  });
  return { child, url, exit, stderr: () => stderr };
}

/** Reads a server-sent event stream until a message matches, returning every message so far. */
async function readEvents(
  url: string,
  until: (m: { type: string }) => boolean,
): Promise<Array<{ type: string }>> {
  const res = await fetch(url);
  const reader = res.body!.getReader();
  const seen: Array<{ type: string }> = [];
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return seen;
    text += Buffer.from(value).toString('utf8');
    let cut: number;
    while ((cut = text.indexOf('\n\n')) >= 0) {
      const frame = text.slice(0, cut);
      text = text.slice(cut + 2);
      const data = /^data: (.*)$/m.exec(frame);
      if (!data) continue;
      seen.push(JSON.parse(data[1]!) as { type: string });
      if (until(seen[seen.length - 1]!)) {
        await reader.cancel();
        return seen;
      }
    }
  }
}

describe('suture run --ui and suture ui', () => {
  it('serves the run live behind its token, and its cancel stops the run as Ctrl-C does', async () => {
    const dir = await repo();
    const before = await snapshotTree(dir, ['.suture/**', '.git/**']);
    const run = await started(
      ['run', '--ui'],
      dir,
      /live dashboard at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/,
    );
    const token = run.url.searchParams.get('token')!;
    expect((await fetch(new URL('/', run.url))).status).toBe(403);
    const page = await fetch(run.url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('"mode":"live"');
    const events = await readEvents(
      new URL(`/api/events?token=${token}`, run.url).href,
      (m) => m.type === 'test',
    );
    expect(events[0]!.type).toBe('run-start');
    const cancel = await fetch(new URL(`/api/cancel?token=${token}`, run.url), { method: 'POST' });
    expect(cancel.status).toBe(202);
    expect(await run.exit).toBe(130);
    expect(run.stderr()).toMatch(
      /the dashboard asked to cancel the run[\s\S]*stopping the tests and restoring the tree/,
    );
    expect(await snapshotTree(dir, ['.suture/**', '.git/**'])).toEqual(before);
    // the dashboard went away with the run
    await expect(fetch(run.url)).rejects.toThrow();
  });

  it('runs to the end with the page, then `suture ui` lists the run; html from the config writes report.html', async () => {
    const dir = await repo();
    const run = await started(['run', '--ui'], dir, /live dashboard at (\S+)/);
    const token = run.url.searchParams.get('token')!;
    const events = await readEvents(
      new URL(`/api/events?token=${token}`, run.url).href,
      (m) => m.type === 'run-end',
    );
    expect(events.map((m) => m.type)).toEqual(
      expect.arrayContaining(['project-start', 'test', 'attempt-end']),
    );
    expect(events[events.length - 1]!.type).toBe('run-end');
    expect(await run.exit).toBe(1);
    const [runId] = await readdir(join(dir, '.suture/runs'));
    await access(join(dir, '.suture/runs', runId!, 'report.html'));

    const ui = await started(['ui'], dir, /at (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/);
    const uiToken = ui.url.searchParams.get('token')!;
    expect(uiToken).not.toBe(token);
    expect((await fetch(new URL('/api/runs', ui.url))).status).toBe(403);
    const runs = (await (await fetch(new URL(`/api/runs?token=${uiToken}`, ui.url))).json()) as Array<{
      runId: string;
      artifacts: string[];
    }>;
    expect(runs.map((r) => r.runId)).toEqual([runId]);
    const earlier = await fetch(new URL(`/runs/${runId}/?token=${uiToken}`, ui.url));
    expect(await earlier.text()).toContain(`"runId":"${runId}"`);
    ui.child.kill('SIGINT');
    expect(await ui.exit).toBe(0);

    const bad = await suture(['ui', '--port', 'eighty'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--port expects a port number from 0 to 65535, got "eighty"/);
  });
});
