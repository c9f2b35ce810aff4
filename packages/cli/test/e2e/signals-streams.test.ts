import { execFile, execFileSync } from 'node:child_process';
import { access, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { snapshotTree } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanup, cliEnv, REPO, spawnSuture, workspace } from './cli-support.js';

afterAll(cleanup);

const PY_FIXTURE = join(REPO, 'packages/runner-pytest/test/e2e/shop');

async function repo(slow = 0.15): Promise<string> {
  const dir = await workspace();
  await mkdir(join(dir, 'app'));
  execFileSync('cp', ['-a', `${PY_FIXTURE}/.`, join(dir, 'app')]);
  await writeFile(
    join(dir, 'app/conftest.py'),
    `import time\n\n\ndef pytest_runtest_setup(item):\n    time.sleep(${slow})\n`,
  );
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: ['hints'],
      reporters: ['console', 'json'],
      heal: { flakyReruns: 0 },
      // the journaled in-place mode: the tree is written while a heal is validated
      workspace: 'in-place',
    }),
  );
  return dir;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

async function waitFor(pred: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

async function journalWritten(dir: string): Promise<boolean> {
  try {
    const m = JSON.parse(await readFile(join(dir, '.suture/journal/manifest.json'), 'utf8'));
    return m.entries.some((e: { written: string[] }) => e.written.length > 0);
  } catch {
    return false;
  }
}

describe('signals', () => {
  it('SIGHUP (a closed terminal) stops the run like SIGTERM: tests stopped, tree restored, lock and journal released', async () => {
    const dir = await repo();
    const before = await snapshotTree(dir, ['.suture/**']);
    const child = spawnSuture(['run', '--fix'], dir);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    expect(await waitFor(() => journalWritten(dir), 60_000)).toBe(true);
    child.kill('SIGHUP');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/SIGHUP: stopping/);
    expect(await exists(join(dir, '.suture/journal'))).toBe(false);
    expect(await exists(join(dir, '.suture/lock'))).toBe(false);
    expect(await snapshotTree(dir, ['.suture/**'])).toEqual(before);
  });
});

describe('Ctrl-C while the config and its plugins load', () => {
  it('ends the command with 130 and its message, before a lock, a journal or a run folder is made', async () => {
    const dir = await repo();
    const marker = join(dir, 'loading');
    // a plugin whose module takes a while to load, and says when it has begun
    await writeFile(
      join(dir, 'slow-fixer.mjs'),
      [
        "import { writeFileSync } from 'node:fs';",
        "import { API_VERSION } from '@suture/core';",
        `writeFileSync(${JSON.stringify(marker)}, '');`,
        'await new Promise((r) => setTimeout(r, 3000));',
        "export default () => ({ name: 'slow', apiVersion: API_VERSION, propose: async () => ({ verdict: 'unfixable', diagnosis: 'slow' }) });",
      ].join('\n'),
    );
    const config = JSON.parse(await readFile(join(dir, 'suture.config.json'), 'utf8'));
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({ ...config, fixers: ['./slow-fixer.mjs'] }),
    );
    const child = spawnSuture(['run', '--fix'], dir);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    expect(await waitFor(() => exists(marker), 60_000)).toBe(true);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping/);
    for (const left of ['lock', 'journal', 'runs'])
      expect(await exists(join(dir, '.suture', left))).toBe(false);
  });
});

describe('closed output pipes', () => {
  it('`suture run --fix --json 2>&1 | head -3` finishes the run: the heal kept, lock and journal released, exit 1 as without the pipe', async () => {
    const dir = await repo(0);
    const before = await snapshotTree(dir, ['.suture/**']);
    const status = join(dir, 'status');
    // The reader closes the pipe after three lines, long before the JSON report is printed.
    const script = `"${process.execPath}" "${BIN}" run --fix --json 2>&1 | head -3; echo "\${PIPESTATUS[0]}" > "${status}"`;
    const head = await new Promise<string>((resolve) =>
      execFile('bash', ['-c', script], { cwd: dir, env: cliEnv() }, (_e, out) => resolve(out)),
    );
    expect(head.split('\n').filter(Boolean).length).toBeLessThanOrEqual(3);
    // 1: three groups stay unfixable without an LLM fixer, as in a run whose output is read in full
    expect((await readFile(status, 'utf8')).trim()).toBe('1');
    expect(await exists(join(dir, '.suture/journal'))).toBe(false);
    expect(await exists(join(dir, '.suture/lock'))).toBe(false);
    const after = await snapshotTree(dir, ['.suture/**', 'status']);
    const changed = [...after].filter(([f, hash]) => before.get(f) !== hash).map(([f]) => f);
    expect(changed).toEqual(['app/inventory/stock.py']);
    const runs = join(dir, '.suture/runs');
    const [runId] = execFileSync('ls', [runs], { encoding: 'utf8' }).split('\n');
    const report = JSON.parse(await readFile(join(runs, runId!, 'report.json'), 'utf8'));
    expect(report.projects[0].status).toBe('failed_after_repair');
    expect(report.totals.healed).toBe(1);
  });
});
