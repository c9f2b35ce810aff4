import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit, FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { gate } from './gate-support.js';
import { VITEST_DIRS, cleanup, copy, pathFor, run, type Major } from './support.js';

afterAll(cleanup);

const FILE = '__tests__/twins.test.ts';
const id = (name: string): string => `${FILE}::math > ${name}`;

/** The 1-based line of the n-th (1-based) line of `text` that holds `snippet`. */
function lineOf(text: string, snippet: string, n = 1): number {
  const lines = text.split('\n');
  const at = lines.flatMap((l, i) => (l.includes(snippet) ? [i + 1] : []))[n - 1];
  if (at === undefined) throw new Error(`no ${n}. line with ${snippet}`);
  return at;
}

/** What a plain `vitest run --reporter=json` of the project counts. */
function nativeCounts(root: string, major: Major): { total: number; passed: number; failed: number } {
  const out = join(root, 'native-report.json');
  const bin = join(VITEST_DIRS[major], 'vitest.mjs');
  const proc = spawnSync('node', [bin, 'run', '--reporter=json', `--outputFile=${out}`], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1', PATH: pathFor(major)! },
  });
  if (proc.error) throw proc.error;
  const report = JSON.parse(readFileSync(out, 'utf8')) as {
    numTotalTests: number;
    numPassedTests: number;
    numFailedTests: number;
  };
  return { total: report.numTotalTests, passed: report.numPassedTests, failed: report.numFailedTests };
}

describe.each(['3', '4', '5'] as const)('tests of one full name in one file, Vitest %s', (major) => {
  // Vitest 5 needs Node 22.12 or newer: the Node 22 that .ci/run installs runs it where this one is older
  it.skipIf(pathFor(major) === undefined)(
    'are each reported under an id of their own, as many as `vitest run` counts, each with its own line and result',
    async () => {
      const root = await copy('duplicates', major);
      const text = await readFile(join(root, FILE), 'utf8');
      const result = await run(root, { options: { env: { PATH: pathFor(major)! } } });
      const native = nativeCounts(root, major);
      expect(result.tests).toHaveLength(native.total);
      expect(result.tests.filter((t) => t.status === 'passed')).toHaveLength(native.passed);
      expect(result.tests.filter((t) => t.status === 'failed')).toHaveLength(native.failed);
      expect(native).toEqual({ total: 7, passed: 4, failed: 3 });
      expect(result.status).toBe('failed');
      const byId = new Map(result.tests.map((t) => [t.id, t]));
      expect(byId.size).toBe(result.tests.length);
      expect(Object.fromEntries(result.tests.map((t) => [t.id, t.status]))).toEqual({
        [id('adds')]: 'failed',
        [id('adds #2')]: 'passed',
        [id('subtracts')]: 'passed',
        [id('subtracts #2')]: 'failed',
        [id('doubles')]: 'passed',
        [id('doubles #2')]: 'failed',
        [id('doubles #3')]: 'passed',
      });
      expect(byId.get(id('adds'))).toMatchObject({ name: 'math > adds', line: lineOf(text, "it('adds'") });
      expect(byId.get(id('adds'))!.message).toMatch(/expected -3 to be 1/);
      expect(byId.get(id('adds #2'))).toMatchObject({
        name: 'math > adds',
        line: lineOf(text, "it('adds'", 2),
      });
      expect(byId.get(id('subtracts #2'))).toMatchObject({ line: lineOf(text, "it('subtracts'", 2) });
      expect(byId.get(id('subtracts #2'))!.message).toMatch(/expected 2 to be -2/);
      expect(byId.get(id('doubles #2'))!.message).toMatch(/expected 4 to be 5/);
    },
    120_000,
  );
});

describe('a test of a repeated full name', () => {
  it('fails the run when it fails, though a test of its name after it passes', async () => {
    const root = await copy('duplicates');
    // the failing test first and its passing twin last: what a result per full name would keep
    await writeFile(
      join(root, FILE),
      [
        "import { expect, it } from 'vitest';",
        "it('works', () => { expect(1).toBe(2); });",
        "it('works', () => { expect(1).toBe(1); });",
        '',
      ].join('\n'),
    );
    const result = await run(root);
    expect(result.status).toBe('failed');
    expect(result.tests.map((t) => [t.id, t.status, t.line])).toEqual([
      [`${FILE}::works`, 'failed', 2],
      [`${FILE}::works #2`, 'passed', 3],
    ]);
  }, 120_000);

  it('is the one stopped when it blocks its worker, and its twin that passed before it keeps its pass', async () => {
    const root = await copy('duplicates');
    await writeFile(
      join(root, FILE),
      [
        "import { expect, it } from 'vitest';",
        // its result reaches Vitest's main process before the next test blocks the worker
        "it('works', async () => { await new Promise((r) => setTimeout(r, 500)); expect(1).toBe(1); });",
        "it('works', async () => { await new Promise((r) => setTimeout(r, 500)); for (;;) {} });",
        "it('works', () => { expect(2).toBe(2); });",
        '',
      ].join('\n'),
    );
    const result = await run(root, { options: { testTimeoutMs: 1_000 } });
    const byLine = [...result.tests].sort((a, b) => a.line! - b.line!);
    expect(byLine.map((t) => [t.id, t.status, t.line])).toEqual([
      [`${FILE}::works`, 'passed', 2],
      [`${FILE}::works #2`, 'timeout', 3],
      // the next pass leaves out every test of the hung one's name: Vitest selects by name only
      [`${FILE}::works #3`, 'skipped', 4],
    ]);
  }, 120_000);

  it('re-runs by its id: the result of the one asked for, by its place, not of its twin', async () => {
    const root = await copy('duplicates');
    const text = await readFile(join(root, FILE), 'utf8');
    const streamed: string[] = [];
    const first = await run(root, { selection: [id('adds')], onTestResult: (t) => streamed.push(t.id) });
    expect(first.status).toBe('failed');
    const asked = first.tests.find((t) => t.id === id('adds'));
    expect(asked).toMatchObject({ status: 'failed', line: lineOf(text, "it('adds'") });
    // Vitest selects by name: the twin runs too, and is reported as itself
    expect(first.tests.find((t) => t.id === id('adds #2'))).toMatchObject({ status: 'passed' });
    expect(first.tests.map((t) => t.id).sort()).toEqual([id('adds'), id('adds #2')]);
    expect(streamed.sort()).toEqual([id('adds'), id('adds #2')]);

    const second = await run(root, { selection: [id('subtracts #2')] });
    expect(second.status).toBe('failed');
    expect(second.tests.find((t) => t.id === id('subtracts #2'))).toMatchObject({
      status: 'failed',
      line: lineOf(text, "it('subtracts'", 2),
    });
    expect(second.command).toMatch(/subtracts/);

    const row = await run(root, { selection: [id('doubles #2')] });
    expect(row.tests.find((t) => t.id === id('doubles #2'))).toMatchObject({ status: 'failed' });
    expect(row.tests.filter((t) => t.id.includes('doubles'))).toHaveLength(3);

    await writeFile(
      join(root, 'src/math.ts'),
      (await readFile(join(root, 'src/math.ts'), 'utf8')).replace('Math.abs(a - b)', 'a - b'),
    );
    const fixed = await run(root, { selection: [id('subtracts #2')] });
    expect(fixed.tests.find((t) => t.id === id('subtracts #2'))).toMatchObject({ status: 'passed' });
    expect(fixed.status).toBe('passed');
  }, 240_000);
});

/** A fixer that proposes `edits` for the failure of test `target`, and nothing for the others. */
const fixing = (target: string, edits: Edit[]) =>
  scriptedFixer(
    Array(6).fill((request: FixRequest) =>
      request.failure.tests.includes(target)
        ? { verdict: 'edits', rationale: 'make it green', edits }
        : { verdict: 'unfixable', diagnosis: 'not this one' },
    ),
  );

const FAILING_ADDS = "  it('adds', () => {\n    expect(add(-1, 2)).toBe(1);\n  });\n\n";

describe('the gate over tests of one full name, on a real Vitest project', () => {
  it('heals the failing second test of a name, validated by a re-run of that one', async () => {
    const root = await copy('duplicates');
    const report = await gate({
      root,
      mode: 'fix',
      fixers: [
        fixing(id('subtracts #2'), [{ file: 'src/math.ts', search: 'Math.abs(a - b)', replace: 'a - b' }]),
      ],
      heal: { maxAttempts: 1 },
    });
    const failures = report.projects[0]!.failures;
    const subtracts = failures.find((f) => f.failure.tests.includes(id('subtracts #2')))!;
    expect(subtracts.outcome).toBe('healed');
    expect(subtracts.attempts[0]!.validation).toMatchObject({ passed: true, stillFailing: [] });
    expect(subtracts.attempts[0]!.validation!.command).toMatch(/subtracts/);
    const adds = failures.find((f) => f.failure.tests.includes(id('adds')))!;
    expect(adds.outcome).not.toBe('healed');
    expect(report.exitCode).toBe(1);
  }, 300_000);

  it('does not take the deletion of the failing test, whose passing twin then has its id, for a heal', async () => {
    for (const heal of [{ allowTestWeakening: false }, { allowTestWeakening: true }]) {
      const root = await copy('duplicates');
      const before = await readFile(join(root, FILE), 'utf8');
      expect(before).toContain(FAILING_ADDS);
      const report = await gate({
        root,
        mode: 'fix',
        fixers: [fixing(id('adds'), [{ file: FILE, search: FAILING_ADDS, replace: '' }])],
        heal: { maxAttempts: 1, ...heal },
      });
      const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(id('adds')))!;
      expect(adds.outcome, JSON.stringify(adds.attempts)).not.toBe('healed');
      if (!heal.allowTestWeakening)
        expect(adds.attempts[0]).toMatchObject({
          verdict: 'refused',
          reason: expect.stringMatching(/deletes or renames test\(s\) math > adds/),
        });
      expect(report.exitCode).toBe(1);
      expect(await readFile(join(root, FILE), 'utf8')).toBe(before);
    }
  }, 600_000);
});
