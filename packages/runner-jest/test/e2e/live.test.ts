import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

describe('Jest runner live results', () => {
  it('hands each result on as its test ends: the first arrives before the last test ends', async () => {
    const root = await copy('live');
    const delivered = join(root, 'first-delivered');
    const seen: TestResult[] = [];
    // the second test waits until the runner has handed the first result on
    const r = await run(root, {
      options: { env: { FIRST_DELIVERED: delivered } },
      onTestResult: (t) => {
        seen.push(t);
        if (t.name === 'first') writeFileSync(delivered, '');
      },
    });
    expect(r.tests.map((t) => [t.name, t.status])).toEqual([
      ['first', 'passed'],
      ['second waits for the first result', 'passed'],
    ]);
    expect(seen.map((t) => [t.id, t.status, t.line])).toEqual([
      ['__tests__/live.test.js::first', 'passed', 3],
      ['__tests__/live.test.js::second waits for the first result', 'passed', 6],
    ]);
  });

  it('hands on a stopped test and the re-run of its file once per test', async () => {
    const root = await copy('hang');
    const seen: string[] = [];
    const r = await run(root, {
      options: { testTimeoutMs: 500 },
      onTestResult: (t) => seen.push(`${t.id} ${t.status}`),
    });
    expect(seen.sort()).toEqual(r.tests.map((t) => `${t.id} ${t.status}`).sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toContain('__tests__/spin.test.js::spins forever timeout');
  });
});
