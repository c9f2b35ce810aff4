import type { RunResult, Runner } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const statuses = (r: RunResult): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.id, t.status]));
const message = (r: RunResult, id: string): string =>
  r.tests.find((t) => t.id === id)?.message ?? `${id} not run`;

const CASES = Array.from({ length: 9 }, (_, n) => `Nine/Hangs.Forever/${n}`);

// Nine values of a TEST_P that all hang (one CTest entry each), a whole binary whose TEST_P has
// a value that passes and another test that hangs, and a hang in another binary.
describe('the limit of the siblings of a GoogleTest case that reached its limit', () => {
  let root: string;
  let runner: Runner;
  let result: RunResult;
  beforeAll(async () => {
    root = await copy('param-hang');
    runner = ctest({ testJobs: 1, testTimeoutMs: 3000, rerunTimeoutMs: 500 });
    result = await run(root, { runner });
  }, 600_000);

  it('gives the other values of a TEST_P that hung rerunTimeoutMs, not the whole limit each', () => {
    for (const id of CASES) expect(statuses(result)[id], id).toBe('timeout');
    expect(message(result, CASES[0]!)).toMatch(
      /^ran past the per-test limit of 3 s; suture stopped it\. If it needs longer, raise the runner option "testTimeoutMs" \(3000 now/,
    );
    for (const id of CASES.slice(1))
      expect(message(result, id)).toBe(
        'ran past 0.5 s, the limit a test gets once another value of the same parametrized test, Nine/Hangs.Forever/0, ran past its limit first in this run (the runner option "rerunTimeoutMs"); suture stopped it. If it needs longer, raise the runner option "rerunTimeoutMs" (500 now; at "testTimeoutMs" = 3000 or above, every test gets the whole limit)',
      );
    // one value waited out the whole limit: 3 s + 8 x 0.5 s, not 9 x 3 s
    expect(CASES.filter((id) => /per-test limit of 3 s/.test(message(result, id)))).toHaveLength(1);
  });

  it('passes a healthy value, reduces the other tests of the binary, and leaves other binaries and declared limits alone', () => {
    expect(statuses(result)).toMatchObject({
      'mixed::Later.Hangs': 'timeout',
      'mixed::Three/Mixed.Case/0': 'timeout',
      'mixed::Three/Mixed.Case/1': 'passed',
      'mixed::Three/Mixed.Case/2': 'timeout',
      other: 'timeout',
      declared: 'timeout',
    });
    // GoogleTest runs the plain test first: it gets the whole limit, the values after it the shorter one
    expect(message(result, 'mixed::Later.Hangs')).toMatch(
      /^ran past the per-test limit of 3 s in the GoogleTest case Later\.Hangs; /,
    );
    expect(message(result, 'mixed::Three/Mixed.Case/0')).toMatch(
      /^ran past 0\.5 s in the GoogleTest case Three\/Mixed\.Case\/0, the limit a test gets once another test of the same binary, mixed::Later\.Hangs, ran past its limit first/,
    );
    expect(message(result, 'mixed::Three/Mixed.Case/2')).toMatch(
      /^ran past 0\.5 s in the GoogleTest case Three\/Mixed\.Case\/2, the limit a test gets once another value of the same parametrized test, mixed::Three\/Mixed\.Case\/0, ran past its limit first/,
    );
    // another binary keeps the whole limit, and CTest holds an entry to the TIMEOUT the project sets
    expect(message(result, 'other')).toMatch(/^ran past the per-test limit of 3 s/);
    expect(message(result, 'declared')).toMatch(/^ran past 2 s, the TIMEOUT property the project sets/);
  });

  it('gives a re-run of a value stopped at a sibling’s limit its whole limit again', async () => {
    const again = await run(root, { runner, selection: [CASES[1]!] });
    expect(statuses(again)).toEqual({ [CASES[1]!]: 'timeout' });
    expect(message(again, CASES[1]!)).toMatch(/^ran past the per-test limit of 3 s; /);
  }, 120_000);
});
