import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FixRequest } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, gitStatus, repoWith } from './gate-support.js';

afterAll(cleanup);

const DOUBLE = 'tests/test_a_double.py::test_double';
const ADD = 'tests/test_add.py::test_add';

/**
 * `double` is built on `add`, which subtracts. double's failure is tried first and its attempts
 * fail (a wrong patch, then the fixer gives up); the heal of add, tried after it, makes it pass.
 */
function fixer() {
  let doubleAsked = 0;
  return scriptedFixer(
    Array(6).fill((r: FixRequest) => {
      if (r.failure.tests.includes(ADD))
        return {
          verdict: 'edits',
          rationale: 'add adds',
          edits: [{ file: 'calc/core.py', search: 'return a - b', replace: 'return a + b' }],
        };
      if (doubleAsked++ > 0) return { verdict: 'unfixable', diagnosis: 'double looks right' };
      return {
        verdict: 'edits',
        rationale: 'twice as much',
        edits: [{ file: 'calc/double.py', search: 'return add(x, x)', replace: 'return add(x, x) * 2' }],
      };
    }),
  );
}

describe('a failure tried before the heal that made it pass, on a real pytest project', () => {
  it('is re-checked on the final tree: healed, exit code 0, and the reports agree', async () => {
    const { repo, root } = await repoWith('interact');
    const report = await gate({ repo, root, mode: 'fix', fixers: [fixer()], heal: { flakyReruns: 0 } });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => [f.failure.tests, f.outcome])).toEqual([
      [[DOUBLE], 'healed'],
      [[ADD], 'healed'],
    ]);
    const double = p.failures[0]!;
    expect(double.attempts.map((a) => a.verdict)).toEqual(['failed-validation', 'unfixable']);
    expect(double.reason).toMatch(/^its tests pass on the final tree, after the heal of /);
    expect(p.status).toBe('healed');
    expect(p.totals).toMatchObject({ tests: 3, passed: 3, healed: 2, stillFailing: 0 });
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, 'calc/core.py'), 'utf8')).toContain('return a + b\n');
    expect(await readFile(join(root, 'calc/double.py'), 'utf8')).toContain('return add(x, x)\n');
    expect(gitStatus(repo).trim()).toBe('M app/calc/core.py');
  });

  it('with the regression run turned off, re-runs the tests of what still failed', async () => {
    const { repo, root } = await repoWith('interact');
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [fixer()],
      heal: { flakyReruns: 0, regression: false },
    });
    const p = report.projects[0]!;
    expect(p.failures.map((f) => f.outcome)).toEqual(['healed', 'healed']);
    const recheck = p.rounds.filter((r) => r.kind === 'recheck');
    expect(recheck.map((r) => r.tests.map((t) => [t.id, t.status]))).toEqual([[[DOUBLE, 'passed']]]);
    expect(report.exitCode).toBe(0);
  });
});
