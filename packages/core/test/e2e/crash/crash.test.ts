import { spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasJournal, recover } from '../../../src/safety/journal.js';
import { skipSuture, snapshot } from '../../harness/tree.mjs';

const CHILD = join(import.meta.dirname, 'crash-child.mjs');
const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function tree(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-crash-'));
  dirs.push(root);
  await mkdir(join(root, 'src'));
  await writeFile(join(root, 'src/app.py'), 'def f():\r\n    return 1');
  await chmod(join(root, 'src/app.py'), 0o755);
  await writeFile(join(root, 'data.bin'), Buffer.from([0, 1, 2, 3, 255]));
  return root;
}

/** Runs the child until it dies; for "storm", SIGKILLs it once it has made `stormWrites` rounds of writes. */
function runChild(
  root: string,
  killAt: string,
  stormWrites = 0,
): Promise<{ signal: NodeJS.Signals | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD, root, killAt], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = [...out.matchAll(/storm (\d+)/g)].pop();
      if (m && Number(m[1]) >= stormWrites && killAt === 'storm') child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => resolve({ signal, out }));
  });
}

describe('recover after a SIGKILL', () => {
  for (const killAt of ['0', '1', '2', '3', '4', '5']) {
    it(`brings the tree back byte for byte when killed after step ${killAt}`, async () => {
      const root = await tree();
      const before = await snapshot(root, skipSuture);
      const { signal, out } = await runChild(root, killAt);
      expect(signal).toBe('SIGKILL');
      expect(out).toContain(`step ${killAt}`);
      if (Number(killAt) >= 1) expect(await snapshot(root, skipSuture)).not.toEqual(before);
      // killed before its first write, the run left no journal: there is nothing to recover
      expect(await hasJournal(root)).toBe(Number(killAt) >= 1);
      const outcome = await recover(root);
      expect(outcome.found).toBe(Number(killAt) >= 1);
      expect(outcome.conflicts).toEqual([]);
      expect(await snapshot(root, skipSuture)).toEqual(before);
      expect(await hasJournal(root)).toBe(false);
    });
  }

  for (const writes of [0, 15, 40]) {
    it(`brings the tree back byte for byte when killed in the middle of a stream of writes (${writes})`, async () => {
      const root = await tree();
      const before = await snapshot(root, skipSuture);
      const { signal } = await runChild(root, 'storm', writes);
      expect(signal).toBe('SIGKILL');
      await recover(root);
      expect(await snapshot(root, skipSuture)).toEqual(before);
    });
  }
});
