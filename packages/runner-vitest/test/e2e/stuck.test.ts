import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, pathFor, run } from './support.js';

// the variables this process already has (CI sets some) reach the tests as a plain run's would
const inherited = Object.keys(process.env)
  .filter((k) => /suture/i.test(k))
  .join(',');
afterAll(cleanup);

/** The 1-based line of the first line of `file` that holds `text`. */
async function lineOf(root: string, file: string, text: string): Promise<number> {
  const lines = (await readFile(join(root, file), 'utf8')).split('\n');
  const i = lines.findIndex((l) => l.includes(text));
  expect(i, `${text} in ${file}`).toBeGreaterThanOrEqual(0);
  return i + 1;
}

/** Every file under `dir` but node_modules, relative to it. */
async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    const rel = join(e.parentPath, e.name).slice(dir.length + 1);
    if (!rel.startsWith('node_modules')) out.push(rel);
  }
  return out.sort();
}

const byName = (r: RunResult, name: string) => r.tests.find((t) => t.name === name)!;

describe('Vitest runner: a test that blocks its worker', () => {
  it('is stopped with where it was stuck, in the code under test, by its TypeScript line', async () => {
    const root = await copy('stuck');
    const before = await filesUnder(root);
    const r = await run(root, { options: { testTimeoutMs: 1000, env: { INHERITED_VARS: inherited } } });
    // the run ends, with every other result kept
    expect(r.status).toBe('failed');
    expect(byName(r, 'passes first').status).toBe('passed');
    expect(byName(r, 'sees no flag or variable of the runner').status).toBe('passed');

    const loop = await lineOf(root, 'src/loop.ts', 'while (');
    const call = await lineOf(root, 'src/loop.ts', 'return spin(');
    const settles = byName(r, 'settles the counter');
    expect(settles.status).toBe('timeout');
    expect(settles.message).toMatch(/^settles the counter did not finish within 3000 ms/);
    expect(settles.message).toContain(`When it was stopped it was at src/loop.ts:${loop} in spin().`);
    expect(settles.details?.stuckAt).toEqual({
      file: 'src/loop.ts',
      line: loop,
      column: expect.any(Number),
      function: 'spin',
    });
    // the whole stack, innermost first, in the project's own files and lines
    const trace = settles.trace!.split('\n');
    expect(trace[0]).toMatch(new RegExp(`^ +at spin \\(src/loop\\.ts:${loop}:\\d+\\)$`));
    expect(trace[1]).toMatch(new RegExp(`^ +at settle \\(src/loop\\.ts:${call}:\\d+\\)$`));
    const test = await lineOf(root, '__tests__/helper.test.ts', 'settle({');
    expect(trace[2]).toMatch(new RegExp(`__tests__/helper\\.test\\.ts:${test}:\\d+\\)?$`));

    // the attack: a loop with no call in it is still interrupted, and named
    const bare = byName(r, 'loops with no call');
    expect(bare.status).toBe('timeout');
    const forever = await lineOf(root, '__tests__/bare.test.ts', 'for (;;)');
    expect(bare.details?.stuckAt).toMatchObject({ file: '__tests__/bare.test.ts', line: forever });
    expect(bare.message).toContain(`When it was stopped it was at __tests__/bare.test.ts:${forever}.`);

    // a worker that cannot answer (blocked in the kernel) is stopped all the same, without a place
    const native = byName(r, 'blocks in native code');
    expect(native.status).toBe('timeout');
    expect(native.message).toMatch(
      /Where it was stuck is not known: its stack could not be taken within 1000 ms/,
    );
    expect(native.details?.stuckAt).toBeNull();
    expect(native.trace).toBeUndefined();

    // the requests and the stacks stay in the runner's work folder
    expect(await filesUnder(root)).toEqual(before);
  }, 120_000);

  // Vitest 5 names no source map in the scripts it runs: the line comes through its own mapping
  for (const major of ['3', '5'] as const) {
    const path = pathFor(major);
    it.skipIf(path === undefined)(
      `names the TypeScript line with Vitest ${major}`,
      async () => {
        const root = await copy('stuck', major);
        const r = await run(root, {
          options: { testTimeoutMs: 1000, args: ['__tests__/helper.test.ts'], env: { PATH: path! } },
        });
        const loop = await lineOf(root, 'src/loop.ts', 'while (');
        expect(byName(r, 'settles the counter').details?.stuckAt).toMatchObject({
          file: 'src/loop.ts',
          line: loop,
          function: 'spin',
        });
      },
      120_000,
    );
  }

  it('cannot name the place in the "threads" pool, where the test blocks a worker thread', async () => {
    const root = await copy('stuck');
    const r = await run(root, {
      options: { testTimeoutMs: 1000, args: ['--pool=threads', '__tests__/helper.test.ts'] },
    });
    const settles = byName(r, 'settles the counter');
    expect(settles.status).toBe('timeout');
    expect(settles.message).toMatch(/Where it was stuck is not known/);
    expect(settles.details?.stuckAt).toBeNull();
    expect(byName(r, 'passes first').status).toBe('passed');
  }, 120_000);
});
