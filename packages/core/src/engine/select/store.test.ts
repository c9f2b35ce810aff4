import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SelectionRecord } from '../../api/contracts/selection.js';
import { sha256 } from '../../safety/atomic.js';
import { mergeSelectionRecords, readBlob, readRecords, selectionDir, writeRecord } from './store.js';

const roots: string[] = [];
afterEach(async () => {
  for (const r of roots.splice(0)) await rm(r, { recursive: true, force: true });
});

const A = sha256('a\n');
const B = sha256('b\n');

function rec(tests: Record<string, { at: string; hash: string }>, toolchain = 't1'): SelectionRecord {
  return {
    version: 1,
    project: 'py',
    runner: 'r',
    toolchain,
    trees: [{ commit: 'c1', dirty: {} }],
    tests: Object.fromEntries(
      Object.entries(tests).map(([id, t]) => [
        id,
        { recordedAt: t.at, ran: { 'src/m.py': { sha256: t.hash, lines: '1' } } },
      ]),
    ),
    files: Object.fromEntries(
      [...new Set(Object.values(tests).map((t) => t.hash))].map((h) => ['src/m.py', { [h]: { shared: '' } }]),
    ),
  };
}

describe('selection records', () => {
  it('merge as a union: every test of both, the newer entry of a test in both, every file version', () => {
    const shard1 = rec({ t1: { at: '2026-01-01', hash: A }, t2: { at: '2026-01-01', hash: A } });
    const shard2 = rec({ t2: { at: '2026-01-02', hash: B }, t3: { at: '2026-01-02', hash: B } });
    const merged = mergeSelectionRecords(shard1, shard2);
    expect(Object.keys(merged.tests).sort()).toEqual(['t1', 't2', 't3']);
    expect(merged.tests.t2!.ran['src/m.py']!.sha256).toBe(B);
    expect(Object.keys(merged.files['src/m.py']!).sort()).toEqual([A, B].sort());
    // the order of the union does not matter
    expect(mergeSelectionRecords(shard2, shard1).tests).toEqual(merged.tests);
  });

  it('do not mix toolchains: the newer record wins whole', () => {
    const old = rec({ t1: { at: '2026-01-01', hash: A } }, 'py3.10');
    const now = rec({ t2: { at: '2026-01-02', hash: B } }, 'py3.11');
    expect(Object.keys(mergeSelectionRecords(old, now).tests)).toEqual(['t2']);
  });

  it('are stored per run, read back merged (shards copied together), and older ones a newer one covers are dropped', async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-select-'));
    roots.push(root);
    await writeRecord(
      root,
      rec({ t1: { at: '2026-01-01', hash: A } }),
      new Map([[A, Buffer.from('a\n')]]),
      'run1',
    );
    await writeRecord(
      root,
      rec({ t2: { at: '2026-01-02', hash: B } }),
      new Map([[B, Buffer.from('b\n')]]),
      'run2',
    );
    expect(Object.keys((await readRecords(root, 'py')).record!.tests).sort()).toEqual(['t1', 't2']);
    expect(await readBlob(root, 'py', A)).toBe('a\n');
    // a run that recorded t1 and t2 again covers both: the older records and the blob only they named go
    await writeRecord(
      root,
      rec({ t1: { at: '2026-01-03', hash: B }, t2: { at: '2026-01-03', hash: B } }),
      new Map([[B, Buffer.from('b\n')]]),
      'run3',
    );
    expect(await readdir(join(selectionDir(root, 'py'), 'records'))).toEqual(['run3.json']);
    expect(await readBlob(root, 'py', A)).toBeUndefined();
  });
});
