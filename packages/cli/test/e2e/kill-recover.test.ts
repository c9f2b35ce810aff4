import { execFileSync } from 'node:child_process';
import { access, readFile, readdir, mkdir, writeFile } from 'node:fs/promises';
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
  // slow tests widen the windows between the phases of an attempt
  await writeFile(
    join(dir, 'app/conftest.py'),
    'import time\n\n\ndef pytest_runtest_setup(item):\n    time.sleep(0.15)\n',
  );
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'app', root: 'app', runner: 'pytest' }],
      fixers: ['hints'],
      reporters: ['json'],
      heal: { flakyReruns: 0 },
      // the journaled in-place mode: the tree is written while a heal is validated
      workspace: 'in-place',
    }),
  );
  return dir;
}

type Phase = 'initial run' | 'journal written' | 'during the re-run';

async function waitFor(pred: () => Promise<boolean>, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await pred()) return true;
    await new Promise((r) => setTimeout(r, 5));
  }
  return false;
}

async function manifestEntries(dir: string): Promise<number> {
  try {
    const m = JSON.parse(await readFile(join(dir, '.suture/journal/manifest.json'), 'utf8'));
    return m.entries.filter((e: { written: string[] }) => e.written.length > 0).length;
  } catch {
    return -1;
  }
}

/** Whether the initial run has started: its runner's scratch folder is there (the journal is not, until the first write). */
async function initialRunStarted(dir: string): Promise<boolean> {
  const runs = await readdir(join(dir, '.suture/runs')).catch(() => []);
  for (const run of runs)
    if (
      await access(join(dir, '.suture/runs', run, 'work/app/1')).then(
        () => true,
        () => false,
      )
    )
      return true;
  return false;
}

describe('SIGKILL in the middle of a run', () => {
  for (const phase of ['initial run', 'journal written', 'during the re-run'] as Phase[]) {
    it(`leaves a tree that \`suture recover\` brings back byte for byte (${phase})`, async () => {
      const dir = await repo();
      const before = await snapshotTree(dir, ['.suture/**']);
      const child = spawnSuture(['run', '--fix'], dir);
      const exited = new Promise((r) => child.on('exit', r));
      if (phase === 'initial run') expect(await waitFor(() => initialRunStarted(dir), 20_000)).toBe(true);
      else if (phase === 'journal written')
        expect(await waitFor(async () => (await manifestEntries(dir)) > 0, 30_000)).toBe(true);
      else {
        await waitFor(async () => (await manifestEntries(dir)) > 0, 30_000);
        await new Promise((r) => setTimeout(r, 250));
      }
      child.kill('SIGKILL');
      await exited;
      const blocked = await suture(['run'], dir);
      const dirty = (await manifestEntries(dir)) >= 0;
      if (dirty) {
        expect(blocked.code).toBe(2);
        expect(blocked.stderr).toMatch(/suture recover/);
      }
      const recovered = await suture(['recover'], dir);
      expect(recovered.code).toBe(0);
      // the stale lock of the killed process does not block the next run either
      expect(await snapshotTree(dir, ['.suture/**'])).toEqual(before);
      const after = await suture(['run', '--no-heal'], dir);
      expect(after.code).toBe(1);
    });
  }
});
