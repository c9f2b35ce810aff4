import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hasJournal, recover } from '../../../src/safety/journal.js';
import { diffSnapshots, snapshot, skipSuture } from '../../harness/tree.mjs';

// Every point the journal's write path logs (SUTURE_PHASE_LOG) is a place a SIGKILL can land. The
// child is held at one point at a time and killed there, for every point of its run in turn:
// recover must bring the tree back byte for byte (folders included) from each of them.
const CHILD = join(import.meta.dirname, 'crash-child.mjs');
const base = await mkdtemp(join(tmpdir(), 'suture-crash-points-'));
afterAll(() => rm(base, { recursive: true, force: true }));

async function tree(name: string): Promise<string> {
  const root = join(base, name);
  await mkdir(join(root, 'src'), { recursive: true });
  await writeFile(join(root, 'src/app.py'), 'def f():\r\n    return 1');
  await chmod(join(root, 'src/app.py'), 0o755);
  await writeFile(join(root, 'data.bin'), Buffer.from([0, 1, 2, 3, 255]));
  return root;
}

function runChild(root: string, log: string, hold?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, SUTURE_PHASE_LOG: log, ...(hold ? { SUTURE_PHASE_HOLD: hold } : {}) };
    const child = spawn(process.execPath, [CHILD, root, 'never'], { stdio: 'ignore', env });
    child.on('error', reject);
    child.on('exit', () => resolve());
    if (!hold) return;
    // The held point is reached when the log holds as many of its lines as its occurrence.
    const [point, occurrence] = hold.split('=')[0]!.split('#');
    const timer = setInterval(async () => {
      const seen = (await readFile(log, 'utf8').catch(() => ''))
        .split('\n')
        .filter((l) => l === point).length;
      if (seen >= Number(occurrence)) {
        clearInterval(timer);
        child.kill('SIGKILL');
      }
    }, 5);
    child.on('exit', () => clearInterval(timer));
  });
}

const reference = await tree('reference');
await runChild(reference, join(base, 'reference.log'));
const points = (await readFile(join(base, 'reference.log'), 'utf8')).split('\n').filter(Boolean);

describe('a SIGKILL at every point of the journal write path', () => {
  it('goes through the journal, backup, manifest, atomic write and folder creation points', () => {
    for (const p of [
      'journal:created',
      'journal:backup',
      'journal:manifest',
      'write:begin',
      'atomic:renaming',
      'atomic:renamed',
      'write:end',
    ])
      expect(points).toContain(p);
  });

  points.forEach((point, i) => {
    const occurrence = points.slice(0, i + 1).filter((p) => p === point).length;
    it(`recover restores the tree killed at ${point} #${occurrence} (point ${i + 1} of ${points.length})`, async () => {
      const root = await tree(`t${i}`);
      const before = await snapshot(root, skipSuture);
      const log = join(base, `t${i}.log`);
      await runChild(root, log, `${point}#${occurrence}=5000`);
      const logged = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
      expect(logged[logged.length - 1]).toBe(point);
      if (await hasJournal(root)) {
        const outcome = await recover(root);
        expect(outcome.conflicts).toEqual([]);
      }
      expect(diffSnapshots(before, await snapshot(root, skipSuture))).toEqual([]);
      expect(await hasJournal(root)).toBe(false);
    });
  });
});
