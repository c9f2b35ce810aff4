import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Edit, FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gate, gitStatus } from './gate-support.js';
import { cleanup, copy, run } from './support.js';

afterAll(cleanup);

const FILE = '__tests__/twins.test.js';
const id = (name: string): string => `${FILE}::math ${name}`;
const JESTS = {
  '29': fileURLToPath(new URL('../../../../node_modules/jest-29/bin/jest.js', import.meta.url)),
  '30': fileURLToPath(new URL('../../../../node_modules/jest/bin/jest.js', import.meta.url)),
} as const;

/** The 1-based line of the n-th (1-based) line of `text` that holds `snippet`. */
function lineOf(text: string, snippet: string, n = 1): number {
  const at = text.split('\n').flatMap((l, i) => (l.includes(snippet) ? [i + 1] : []))[n - 1];
  if (at === undefined) throw new Error(`no line ${n} with ${snippet}`);
  return at;
}

/** What a plain `jest --json` of the project counts. */
function nativeCounts(root: string, jestBin: string): { total: number; passed: number; failed: number } {
  const out = join(root, 'native-report.json');
  const proc = spawnSync(process.execPath, [jestBin, '--ci', '--json', `--outputFile=${out}`], {
    cwd: root,
    encoding: 'utf8',
  });
  if (proc.error) throw proc.error;
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    numTotalTests: number;
    numPassedTests: number;
    numFailedTests: number;
  };
  return { total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests };
}

describe.each(Object.entries(JESTS))('tests of one full name in one file, Jest %s', (_major, jestBin) => {
  it('are each reported under an id of their own, as many as `jest --json` counts, each with its own line and result', async () => {
    const root = await copy('duplicates');
    const text = await readFile(join(root, FILE), 'utf8');
    const streamed: string[] = [];
    const result = await run(root, { options: { jestBin }, onTestResult: (t) => streamed.push(t.id) });
    const native = nativeCounts(root, jestBin);
    expect(native).toEqual({ total: 7, passed: 4, failed: 3 });
    expect(result.tests).toHaveLength(native.total);
    expect(result.tests.filter((t) => t.status === 'passed')).toHaveLength(native.passed);
    expect(result.tests.filter((t) => t.status === 'failed')).toHaveLength(native.failed);
    expect(result.status).toBe('failed');
    expect(Object.fromEntries(result.tests.map((t) => [t.id, t.status]))).toEqual({
      [id('adds')]: 'failed',
      [id('adds #2')]: 'passed',
      [id('subtracts')]: 'passed',
      [id('subtracts #2')]: 'failed',
      [id('doubles')]: 'passed',
      [id('doubles #2')]: 'failed',
      [id('doubles #3')]: 'passed',
    });
    expect(streamed.sort()).toEqual(result.tests.map((t) => t.id).sort());
    const byId = new Map(result.tests.map((t) => [t.id, t]));
    expect(byId.get(id('adds'))).toMatchObject({ name: 'math adds', line: lineOf(text, "it('adds'") });
    expect(byId.get(id('adds'))!.message).toMatch(/Expected: 1\s+Received: -3/);
    expect(byId.get(id('adds #2'))).toMatchObject({ line: lineOf(text, "it('adds'", 2) });
    expect(byId.get(id('subtracts #2'))).toMatchObject({ line: lineOf(text, "it('subtracts'", 2) });
    // a test.each case is placed where its title is written, as Jest's other cases are
    expect(byId.get(id('doubles #2'))).toMatchObject({ line: lineOf(text, "])('doubles'") });
  }, 120_000);
});

describe('a Jest test of a repeated full name', () => {
  it('fails the run when it fails, though a test of its name after it passes', async () => {
    const root = await copy('duplicates');
    await writeFile(
      join(root, FILE),
      "it('works', () => { expect(1).toBe(2); });\nit('works', () => { expect(1).toBe(1); });\n",
    );
    const result = await run(root);
    expect(result.status).toBe('failed');
    expect(result.tests.map((t) => [t.id, t.status, t.line])).toEqual([
      [`${FILE}::works`, 'failed', 1],
      [`${FILE}::works #2`, 'passed', 2],
    ]);
  }, 120_000);

  it('re-runs by its id: the result of the one asked for, by its place, not of its twin', async () => {
    const root = await copy('duplicates');
    const first = await run(root, { selection: [id('adds')] });
    expect(first.status).toBe('failed');
    expect(first.tests.find((t) => t.id === id('adds'))).toMatchObject({ status: 'failed' });
    expect(first.tests.find((t) => t.id === id('adds #2'))).toMatchObject({ status: 'passed' });
    const second = await run(root, { selection: [id('subtracts #2')] });
    expect(second.status).toBe('failed');
    expect(second.tests.find((t) => t.id === id('subtracts #2'))).toMatchObject({ status: 'failed' });
    expect(second.command).toMatch(/subtracts/);
  }, 240_000);
});

const fixing = (target: string, edits: Edit[]) =>
  scriptedFixer(
    Array(6).fill((request: FixRequest) =>
      request.failure.tests.includes(target)
        ? { verdict: 'edits', rationale: 'make it green', edits }
        : { verdict: 'unfixable', diagnosis: 'not this one' },
    ),
  );

const FAILING_ADDS = "  it('adds', () => {\n    expect(add(-1, 2)).toBe(1);\n  });\n\n";

describe('the gate over Jest tests of one full name', () => {
  it('heals the failing second test of a name, validated by a re-run of that one', async () => {
    const root = await copy('duplicates');
    commitAll(root);
    const report = await gate({
      root,
      mode: 'fix',
      fixers: [
        fixing(id('subtracts #2'), [{ file: 'src/math.js', search: 'Math.abs(a - b)', replace: 'a - b' }]),
      ],
      heal: { maxAttempts: 1 },
    });
    const subtracts = report.projects[0]!.failures.find((f) => f.failure.tests.includes(id('subtracts #2')))!;
    expect(subtracts.outcome).toBe('healed');
    expect(subtracts.attempts[0]!.validation).toMatchObject({ passed: true, stillFailing: [] });
    expect(report.exitCode).toBe(1);
  }, 300_000);

  it('does not take the deletion of the failing test, whose passing twin then has its id, for a heal', async () => {
    for (const heal of [{ allowTestWeakening: false }, { allowTestWeakening: true }]) {
      const root = await copy('duplicates');
      commitAll(root);
      const report = await gate({
        root,
        mode: 'fix',
        fixers: [fixing(id('adds'), [{ file: FILE, search: FAILING_ADDS, replace: '' }])],
        heal: { maxAttempts: 1, ...heal },
      });
      const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(id('adds')))!;
      expect(adds.outcome).not.toBe('healed');
      if (!heal.allowTestWeakening)
        expect(adds.attempts[0]).toMatchObject({
          verdict: 'refused',
          reason: expect.stringMatching(/deletes or renames test\(s\) math > adds/),
        });
      expect(report.exitCode).toBe(1);
      expect(gitStatus(root)).toBe('');
    }
  }, 600_000);
});
