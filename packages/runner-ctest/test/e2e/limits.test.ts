import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult, Runner } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const statuses = (r: RunResult): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.id, t.status]));

// One binary that hangs in its second case, registered both ways: a CTest entry per case, and
// the whole binary as one entry.
describe('per-test limits of the CTest runner', () => {
  let root: string;
  let runner: Runner;
  let result: RunResult;
  beforeAll(async () => {
    root = await copy('limits');
    runner = ctest({ parallel: 2, testTimeoutMs: 2000, rerunTimeoutMs: 1000 });
    result = await run(root, { runner });
  }, 600_000);

  it('stops a hanging test at testTimeoutMs, names the case a whole binary was in, and runs the rest', () => {
    expect(statuses(result)).toEqual({
      'Hang.Before': 'passed',
      'Hang.Forever': 'timeout',
      'Hang.After': 'passed',
      'Hang.WhenFlagged': 'passed',
      'hang::all::Hang.Before': 'passed',
      'hang::all::Hang.Forever': 'timeout',
      'hang::all::Hang.After': 'passed',
      'hang::all::Hang.WhenFlagged': 'passed',
    });
    const whole = result.tests.find((t) => t.id === 'hang::all::Hang.Forever')!;
    expect(whole).toMatchObject({ file: 'tests/hang.cpp', line: 11, details: { gtest: 'Hang.Forever' } });
    expect(whole.message).toBe(
      'ran past the per-test limit of 2 s in the GoogleTest case Hang.Forever; suture stopped it. If it needs longer, raise the runner option "testTimeoutMs" (2000 now; 0 turns the limit off)',
    );
    expect(result.tests.find((t) => t.id === 'Hang.Forever')!.message).toMatch(
      /^ran past the per-test limit of 2 s; .*raise the runner option "testTimeoutMs"/,
    );
    // the run itself finished: a test at its limit is a result, not the run's timeout
    expect(result.status).toBe('failed');
  });

  it('limits a re-run by the duration measured before (rerunTimeoutMs), for an entry and a case alike', async () => {
    await writeFile(join(root, 'hang.flag'), '');
    try {
      const again = await run(root, {
        runner,
        selection: ['Hang.WhenFlagged', 'hang::all::Hang.WhenFlagged'],
      });
      expect(statuses(again)).toEqual({
        'Hang.WhenFlagged': 'timeout',
        'hang::all::Hang.WhenFlagged': 'timeout',
      });
      for (const t of again.tests)
        expect(t.message).toMatch(
          /^ran past 1 s.*the limit of this re-run \(5x its earlier duration of [\d.]+ s, at least the runner option "rerunTimeoutMs" = 1000, at most "testTimeoutMs" = 2000\).*raise the runner option "rerunTimeoutMs"$/,
        );
    } finally {
      await rm(join(root, 'hang.flag'));
    }
  });

  it('gives a re-run of the tests that hung, never measured, rerunTimeoutMs instead of the whole limit', async () => {
    const again = await run(root, { runner, selection: ['Hang.Forever', 'hang::all::Hang.Forever'] });
    expect(statuses(again)).toEqual({ 'Hang.Forever': 'timeout', 'hang::all::Hang.Forever': 'timeout' });
    for (const t of again.tests)
      expect(t.message).toMatch(
        /^ran past 1 s.*, the limit of this re-run of a test that ran past its limit before \(the runner option "rerunTimeoutMs"\); .*raise the runner option "rerunTimeoutMs"$/,
      );
  });

  it('with testTimeoutMs 0 leaves a hang to the run’s wall-clock limit, and names timeoutMs and the case', async () => {
    const r = await run(root, { runner: ctest({ parallel: 2, testTimeoutMs: 0 }), timeoutMs: 8000 });
    expect(r.status).toBe('timeout');
    expect(r.error).toBe(
      'killed at the wall-clock limit of the run (8000 ms); raise "timeoutMs" in the suture config (per project or at the top)',
    );
    const hung = r.tests.find((t) => t.id === 'hang::all::Hang.Forever');
    expect(hung).toMatchObject({ status: 'timeout' });
    expect(hung!.message).toMatch(/in the GoogleTest case Hang\.Forever; raise "timeoutMs"/);
  });

  it('with the default settings reports the hanging case as a timeout, named, at the default limit', async () => {
    const r = await run(root, { runner: ctest() });
    expect(statuses(r)['hang::all::Hang.Forever']).toBe('timeout');
    expect(statuses(r)['Hang.Forever']).toBe('timeout');
    expect(r.tests.find((t) => t.id === 'hang::all::Hang.Forever')!.message).toMatch(
      /^ran past the per-test limit of 30 s in the GoogleTest case Hang\.Forever; .*"testTimeoutMs" \(30000 now/,
    );
    expect(statuses(r)['hang::all::Hang.After']).toBe('passed');
  }, 120_000);
});
