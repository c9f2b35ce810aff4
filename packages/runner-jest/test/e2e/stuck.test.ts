import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RunResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, run } from './support.js';

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

describe('Jest runner: a test that blocks its worker', () => {
  it('is stopped with where it was stuck, in the code under test, from a worker process', async () => {
    const root = await copy('stuck');
    // a fresh cache: with no timings Jest gives each file to a worker process instead of running in-band
    await writeFile(
      join(root, 'jest.config.js'),
      'module.exports = { cacheDirectory: "<rootDir>/.cache" };\n',
    );
    const before = (await filesUnder(root)).filter((f) => !f.startsWith('.cache'));
    const r = await run(root, {
      options: { testTimeoutMs: 1000, env: { INHERITED_VARS: inherited }, args: ['--maxWorkers=2'] },
    });
    // the run ends, with every other result kept
    expect(r.status).toBe('failed');
    expect(byName(r, 'passes first').status).toBe('passed');
    expect(byName(r, 'sees no flag or variable of the runner').status).toBe('passed');
    expect(byName(r, 'runs in a worker process').status).toBe('passed');

    const loop = await lineOf(root, 'src/loop.js', 'while (');
    const call = await lineOf(root, 'src/loop.js', 'return spin(');
    const settles = byName(r, 'settles the counter');
    expect(settles.status).toBe('timeout');
    expect(settles.message).toMatch(/^settles the counter did not finish within 3000 ms/);
    expect(settles.message).toContain(`When it was stopped it was at src/loop.js:${loop} in spin().`);
    expect(settles.details?.stuckAt).toEqual({
      file: 'src/loop.js',
      line: loop,
      column: expect.any(Number),
      function: 'spin',
    });
    // the whole stack, innermost first, in the project's own files and lines
    const trace = settles.trace!.split('\n');
    expect(trace[0]).toMatch(new RegExp(`^ +at spin \\(src/loop\\.js:${loop}:\\d+\\)$`));
    expect(trace[1]).toMatch(new RegExp(`^ +at settle \\(src/loop\\.js:${call}:\\d+\\)$`));
    const test = await lineOf(root, '__tests__/helper.test.js', 'settle({');
    expect(trace[2]).toMatch(new RegExp(`__tests__/helper\\.test\\.js:${test}:\\d+\\)?$`));

    // the attack: a loop with no call in it is still interrupted, and named
    const bare = byName(r, 'loops with no call');
    expect(bare.status).toBe('timeout');
    const forever = await lineOf(root, '__tests__/bare.test.js', 'for (;;)');
    expect(bare.details?.stuckAt).toMatchObject({ file: '__tests__/bare.test.js', line: forever });
    expect(bare.message).toContain(`When it was stopped it was at __tests__/bare.test.js:${forever}.`);

    // a worker that cannot answer (blocked in the kernel) is stopped all the same, without a place
    const native = byName(r, 'blocks in native code');
    expect(native.status).toBe('timeout');
    expect(native.message).toMatch(
      /Where it was stuck is not known: its stack could not be taken within 1000 ms/,
    );
    expect(native.details?.stuckAt).toBeNull();
    expect(native.trace).toBeUndefined();

    // the requests and the stacks stay in the runner's work folder
    expect((await filesUnder(root)).filter((f) => !f.startsWith('.cache'))).toEqual(before);
  }, 120_000);

  it('names the place in-band too, where the tests run in the Jest process itself', async () => {
    const root = await copy('stuck');
    const r = await run(root, {
      options: { testTimeoutMs: 1000, runInBand: true, args: ['__tests__/helper'] },
    });
    const loop = await lineOf(root, 'src/loop.js', 'while (');
    const settles = byName(r, 'settles the counter');
    expect(settles.status).toBe('timeout');
    expect(settles.details?.stuckAt).toMatchObject({ file: 'src/loop.js', line: loop, function: 'spin' });
    expect(byName(r, 'passes first').status).toBe('passed');
  }, 120_000);
});
