import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { commitAll, gate, gitStatus } from './gate-support.js';
import { cleanup, copy } from './support.js';

afterAll(cleanup);

const DOUBLE = '__tests__/calc.test.js::double';
const ADD = '__tests__/calc.test.js::add';

/**
 * `double` is built on `add`, which subtracts. double's failure comes first and its attempts fail
 * (a wrong patch, then the fixer gives up); the heal of add, tried after it, makes it pass.
 */
function fixer() {
  let doubleAsked = 0;
  return scriptedFixer(
    Array(6).fill((r: FixRequest) => {
      if (r.failure.tests.includes(ADD))
        return {
          verdict: 'edits',
          rationale: 'add adds',
          edits: [{ file: 'src/core.js', search: 'return a - b;', replace: 'return a + b;' }],
        };
      if (doubleAsked++ > 0) return { verdict: 'unfixable', diagnosis: 'double looks right' };
      return {
        verdict: 'edits',
        rationale: 'twice as much',
        edits: [{ file: 'src/double.js', search: 'return add(x, x);', replace: 'return add(x, x) * 2;' }],
      };
    }),
  );
}

describe('two failure groups whose fixes interact, on a real Jest project', () => {
  it('re-checks the group tried first on the final tree: healed, exit 0, and git status shows only the fix', async () => {
    const root = await copy('interact');
    commitAll(root);
    const report = await gate({ root, mode: 'fix', fixers: [fixer()] });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => [f.failure.tests, f.outcome])).toEqual([
      [[DOUBLE], 'healed'],
      [[ADD], 'healed'],
    ]);
    const double = p.failures[0]!;
    expect(double.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'unfixable']);
    expect(double.reason).toMatch(/^its tests pass on the final tree, after the heal of /);
    expect(p.rounds.at(-1)).toMatchObject({ kind: 'regression' });
    expect(p.status).toBe('healed');
    expect(p.totals).toMatchObject({ tests: 3, passed: 3, healed: 2, stillFailing: 0 });
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, 'src/core.js'), 'utf8')).toContain('return a + b;');
    expect(await readFile(join(root, 'src/double.js'), 'utf8')).toContain('return add(x, x);\n');
    // .suture/ (journal, runs, the analyzer's caches) ignores itself: only the heal shows
    expect(await readFile(join(root, '.suture/.gitignore'), 'utf8')).toMatch(/^\*$/m);
    expect(gitStatus(root)).toBe(' M src/core.js\n');
  });

  it('with the regression run turned off, re-runs the tests of what still failed', async () => {
    const root = await copy('interact');
    const report = await gate({ root, mode: 'fix', fixers: [fixer()], heal: { regression: false } });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    const recheck = p.rounds.filter((r) => r.kind === 'recheck');
    expect(recheck.map((r) => r.tests.map((t) => [t.id, t.status]))).toEqual([[[DOUBLE, 'passed']]]);
    expect(report.exitCode).toBe(0);
  });

  it('in check mode leaves the tree and git status as they were', async () => {
    const root = await copy('interact');
    commitAll(root);
    const report = await gate({ root, mode: 'check', fixers: [fixer()] });
    expect(report.projects[0]!.failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    expect(report.exitCode).toBe(1);
    expect(report.patch).toContain('+  return a + b;');
    expect(gitStatus(root)).toBe('');
  });
});
