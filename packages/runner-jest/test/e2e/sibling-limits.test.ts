import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const FILES = ['spin', 'wait', 'other', 'slow'].map((f) => `__tests__/${f}.test.js`);
/** Every test file of the fixture but these. */
const allBut = (...kept: string[]): string[] => FILES.filter((f) => !kept.includes(f));

const statuses = (r: RunResult): Record<string, string> =>
  Object.fromEntries(r.tests.map((t) => [t.id, t.status]));
const test = (r: RunResult, id: string) => {
  const t = r.tests.find((x) => x.id === id);
  expect(t, id).toBeDefined();
  return t!;
};
const limit = (r: RunResult, id: string): unknown => test(r, id).details?.timeout;

// The cases spend most of their time waiting out time limits, so they run concurrently.
describe.concurrent('the limit of the siblings of a Jest test that ran past its limit', () => {
  it('gives the other cases of a test.each that blocks its worker, and the other tests of its file, rerunTimeoutMs, a fifth of it once two have hung, and a re-run of one of them alone its whole limit', async () => {
    const root = await copy('sibling-hangs');
    const spin = '__tests__/spin.test.js';
    // one runner instance, as in a gate: the re-run reads what the first run saw
    const runner = jest({ testTimeoutMs: 3000, rerunTimeoutMs: 4000 });
    const r = await run(root, { runner, exclude: allBut(spin) });
    expect(r.status).toBe('failed');
    expect(statuses(r)).toEqual({
      [`${spin}::spins 1`]: 'timeout',
      [`${spin}::spins 2`]: 'timeout',
      [`${spin}::spins 3`]: 'timeout',
      [`${spin}::spins after the cases`]: 'timeout',
      // a sibling that needs less than its limit still passes
      [`${spin}::passes beside the loops`]: 'passed',
    });
    expect(limit(r, `${spin}::spins 1`)).toEqual({ limitMs: 5000, source: 'test' });
    expect(test(r, `${spin}::spins 1`).message).toMatch(
      /^spins 1 did not finish within 5000 ms \(the test's timeout of 3000 ms, .*raise the runner option "testTimeoutMs"\. When it was stopped it was at __tests__\/spin\.test\.js:\d+\.$/,
    );
    expect(limit(r, `${spin}::spins 2`)).toEqual({
      limitMs: 4000,
      source: 'sibling',
      after: `${spin}::spins 1`,
      scope: 'each',
    });
    // the place it was stuck at ends the message (stuck.test.ts holds that to its line)
    expect(test(r, `${spin}::spins 2`).message?.replace(/ When it was stopped it was at \S+\.$/, '')).toBe(
      `spins 2 did not finish within 4000 ms (the limit a test gets once another case of the same test.each, ${spin}::spins 1, ran past its limit first in this run: the runner option "rerunTimeoutMs"); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "rerunTimeoutMs" (4000 now; at 5000 or above, the test gets its whole limit of 5000 ms).`,
    );
    // two of the family have hung: the rest would too, and each gets a fifth, 1 s at least
    expect(limit(r, `${spin}::spins 3`)).toEqual({
      limitMs: 1000,
      source: 'sibling',
      after: `${spin}::spins 1`,
      scope: 'each',
      repeated: 2,
    });
    expect(test(r, `${spin}::spins 3`).message?.replace(/ When it was stopped it was at \S+\.$/, '')).toBe(
      `spins 3 did not finish within 1000 ms (the limit a test gets once 2 tests of the same test.each, the first ${spin}::spins 1, ran past their limits in this run: a fifth of the runner option "rerunTimeoutMs", 1 s at least); suture stopped it and ran the other tests without it. If it needs longer, raise the runner option "rerunTimeoutMs" (4000 now), or run it alone: it then gets its whole limit of 5000 ms.`,
    );
    expect(limit(r, `${spin}::spins after the cases`)).toEqual({
      limitMs: 1000,
      source: 'sibling',
      after: `${spin}::spins 1`,
      scope: 'file',
      repeated: 3,
    });
    expect(test(r, `${spin}::spins after the cases`).message).toMatch(
      /once 3 tests of the same file, the first __tests__\/spin\.test\.js::spins 1, ran past their limits in this run/,
    );

    // alone, it is held to its whole limit again, not to its sibling's
    const again = await run(root, { runner, selection: [`${spin}::spins 3`] });
    expect(statuses(again)).toEqual({ [`${spin}::spins 3`]: 'timeout' });
    expect(limit(again, `${spin}::spins 3`)).toEqual({ limitMs: 5000, source: 'test' });
  }, 180_000);

  it('gives the other cases of a test.each whose promise never settles rerunTimeoutMs, and leaves a declared timeout and the tests of other files as they are', async () => {
    const root = await copy('sibling-hangs');
    const [wait, other] = ['__tests__/wait.test.js', '__tests__/other.test.js'];
    const runner = jest({ testTimeoutMs: 3000, rerunTimeoutMs: 1000 });
    const r = await run(root, { runner, exclude: allBut(wait, other) });
    expect(r.status).toBe('failed');
    expect(statuses(r)).toEqual({
      [`${wait}::waits 1`]: 'timeout',
      [`${wait}::waits 2`]: 'timeout',
      [`${wait}::waits 3`]: 'timeout',
      [`${wait}::waits with its own timeout`]: 'timeout',
      [`${wait}::passes after the waits`]: 'passed',
      [`${other}::waits alone`]: 'timeout',
    });
    // the first case ran into Jest's own timeout, which the runner option sets; its result stands
    // (the passes after it leave it out rather than spend that timeout on it again)
    expect(test(r, `${wait}::waits 1`).message).toMatch(/Exceeded timeout of 3000 ms/);
    expect(limit(r, `${wait}::waits 2`)).toEqual({
      limitMs: 1000,
      source: 'sibling',
      after: `${wait}::waits 1`,
      scope: 'each',
    });
    expect(test(r, `${wait}::waits 2`).message).toMatch(
      /did not finish within 1000 ms .*raise the runner option "rerunTimeoutMs" \(1000 now; /,
    );
    // a fifth of 1000 ms would be below the floor of 1 s: the plain sibling limit
    expect(limit(r, `${wait}::waits 3`)).toEqual({
      limitMs: 1000,
      source: 'sibling',
      after: `${wait}::waits 1`,
      scope: 'each',
    });
    // the test's own timeout argument is kept
    expect(test(r, `${wait}::waits with its own timeout`).message).toMatch(/Exceeded timeout of 2500 ms/);
    expect(limit(r, `${wait}::waits with its own timeout`)).toBeUndefined();
    // another file's test keeps its whole limit
    expect(test(r, `${other}::waits alone`).message).toMatch(/Exceeded timeout of 3000 ms/);

    const again = await run(root, { runner, selection: [`${wait}::waits 2`] });
    expect(statuses(again)).toEqual({ [`${wait}::waits 2`]: 'timeout' });
    expect(test(again, `${wait}::waits 2`).message).toMatch(/Exceeded timeout of 3000 ms/);
  }, 180_000);

  it('does not hold a slow case stopped at its sibling’s limit to the short limit of a test that hung before when it is run again', async () => {
    const root = await copy('sibling-hangs');
    const slow = '__tests__/slow.test.js';
    // Jest's own timeout from the project's config, and no testTimeoutMs: a test that blocks its
    // worker gets 30 s, and a re-run of one that hung before Jest's timeout and a grace (3 s)
    await writeFile(join(root, 'jest.config.js'), 'module.exports = { testTimeout: 1000 };\n');
    const runner = jest({ rerunTimeoutMs: 1500 });
    const r = await run(root, { runner, exclude: allBut(slow) });
    expect(statuses(r)).toEqual({
      [`${slow}::works through 1`]: 'timeout',
      [`${slow}::works through 2`]: 'timeout',
    });
    expect(test(r, `${slow}::works through 1`).message).toMatch(/Exceeded timeout of 1000 ms/);
    expect(limit(r, `${slow}::works through 2`)).toEqual({
      limitMs: 1500,
      source: 'sibling',
      after: `${slow}::works through 1`,
      scope: 'each',
    });
    expect(test(r, `${slow}::works through 2`).message).toMatch(
      /at 30000 or above, the test gets its whole limit/,
    );
    // alone, it has its whole 30 s for the 4 s it blocks
    const again = await run(root, { runner, selection: [`${slow}::works through 2`] });
    expect(statuses(again)).toEqual({ [`${slow}::works through 2`]: 'passed' });
  }, 180_000);
});
