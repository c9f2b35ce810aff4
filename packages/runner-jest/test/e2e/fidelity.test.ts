import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { foldResults, readJestJson } from '../../src/results.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const JEST = fileURLToPath(new URL('../../../../node_modules/jest/bin/jest.js', import.meta.url));

/** Plain Jest in the fixture, as a user runs it: exit code, output and its own --json report. */
async function native(root: string, args: string[]): Promise<{ code: number; output: string }> {
  const r = await promisify(execFile)(process.execPath, [JEST, ...args], { cwd: root }).then(
    (ok) => ({ code: 0, output: ok.stdout + ok.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, output: e.stdout + e.stderr }),
  );
  return r;
}

describe('Jest under suture as Jest runs natively', () => {
  it('gives a green suite the ids and statuses of a plain jest --ci --json run', async () => {
    const root = await copy('green');
    const plain = await native(root, ['--ci', '--json', '--outputFile=native.json']);
    expect(plain.code).toBe(0);
    const report = readJestJson(await readFile(join(root, 'native.json'), 'utf8'));
    if (!('json' in report)) throw new Error(report.error);
    const want = foldResults(report.json, root).tests.map((t) => [t.id, t.status]);
    const r = await run(root);
    expect(r.status).toBe('passed');
    const got = r.tests.map((t) => [t.id, t.status]);
    expect(got.sort()).toEqual(want.sort());
    const count = (status: string) => got.filter(([, s]) => s === status).length;
    expect([count('passed'), count('skipped'), count('failed')]).toEqual([7, 2, 0]);
  });

  it('leaves process.argv to the tests as a plain jest run does, so a strict parser in-band passes', async () => {
    const root = await copy('argv');
    // the flags a runner used to add are what broke the suite: Jest itself shows it
    const flagged = await native(root, ['--json', '--outputFile=native.json']);
    expect(flagged.code).toBe(1);
    expect(flagged.output).toMatch(/Unknown option '--json'/);
    expect((await native(root, [])).code).toBe(0);
    const r = await run(root);
    expect(r.tests.map((t) => [t.id, t.status])).toEqual([
      ['__tests__/cli.test.js::reads the command line it was started with', 'passed'],
    ]);
    expect(r.status).toBe('passed');
  });

  it('reads coloured output: a forced FORCE_COLOR reaches Jest, and messages come out plain', async () => {
    const root = await copy('basic');
    const r = await run(root, { options: { env: { FORCE_COLOR: '1' } } });
    const total = r.tests.find(
      (t) => t.id === '__tests__/cart.test.js::cart total applies the discount from 100',
    )!;
    expect(total).toMatchObject({ status: 'failed', details: { expected: '90', received: '100' } });
    expect(total.trace).toMatch(/Expected: 90/);
    for (const t of r.tests) expect(`${t.message ?? ''}${t.trace ?? ''}`).not.toMatch(/\u001b/);
  });

  it('gives Jest the same configuration on every run, so its transform cache stays warm', async () => {
    // Jest keys its transform cache on each project's config, into which some versions (30.2,
    // not 30.5) copy the reporters and their options: the events file's per-run path there made
    // every run transform every file again (javascript-algorithms: 32 s against 24 s natively)
    const root = await copy('green');
    const shown = async (): Promise<string> => {
      const r = await run(root, { options: { args: ['--showConfig'] } });
      expect(r.outputTail).toContain('suture-jest-reporter.cjs');
      return r.outputTail.replace(/"seed": -?\d+/g, '');
    };
    const first = await shown();
    expect(first).not.toMatch(/jest-events|jest-work-/);
    expect(await shown()).toBe(first);
  });
});
