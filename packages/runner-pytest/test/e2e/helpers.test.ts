import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADDS = 'tests/test_calc.py::test_adds';
const TABLE = 'tests/test_calc.py::test_table';
const FIX = { file: 'calc/core.py', search: 'return a - b', replace: 'return a + b' };

type Edit = { file: string; search: string; replace: string };

async function heal(edits: Edit[]): Promise<{
  report: Awaited<ReturnType<typeof gate>>;
  root: string;
  test: string;
}> {
  const { repo, root } = await repoWith('helpers');
  const test = await readFile(join(root, 'tests/test_calc.py'), 'utf8');
  const fixer = scriptedFixer(Array(4).fill({ verdict: 'edits', rationale: 'make it green', edits }));
  const report = await gate({
    repo,
    root,
    mode: 'fix',
    fixers: [fixer],
    heal: { maxAttempts: 1, flakyReruns: 0 },
  });
  return { report, root, test };
}

const attemptOf = (report: Awaited<ReturnType<typeof gate>>, id: string) =>
  report.projects[0]!.failures.find((f) => f.failure.tests.includes(id))!;

describe('what a real pytest test runs beyond its own assertions', () => {
  it('refuses gutting the helper the test calls (the HumanEval check shape), leaving the tree as it was', async () => {
    const { report, root, test } = await heal([
      {
        file: 'tests/test_calc.py',
        search: '    assert candidate(2, 3) == 5\n    assert candidate(0, 0) == 0\n',
        replace: '    assert True\n',
      },
    ]);
    const adds = attemptOf(report, ADDS);
    expect(adds.outcome).not.toBe('healed');
    expect(adds.attempts[0]!.verdict).toBe('refused');
    expect(adds.attempts[0]!.reason).toMatch(
      /in helper check, `assert candidate\(2, 3\) == 5` became a constant/,
    );
    expect(report.exitCode).toBe(1);
    expect(await readFile(join(root, 'tests/test_calc.py'), 'utf8')).toBe(test);
  }, 180_000);

  it('refuses emptying the case list the assertions loop over', async () => {
    const { report, root, test } = await heal([
      { file: 'tests/test_calc.py', search: 'CASES = [(2, 3, 5), (1, 1, 2)]', replace: 'CASES = []' },
    ]);
    const table = attemptOf(report, TABLE);
    expect(table.outcome).not.toBe('healed');
    expect(table.attempts[0]!.reason).toMatch(/drops 2 of the 2 cases test_table runs/);
    expect(await readFile(join(root, 'tests/test_calc.py'), 'utf8')).toBe(test);
  }, 180_000);

  it('heals a fix that also makes an assertion through a local variable, unflagged', async () => {
    const { report, root } = await heal([
      FIX,
      {
        file: 'tests/test_calc.py',
        search: '        assert add(a, b) == want\n',
        replace: '        got = add(a, b)\n        assert got == want\n',
      },
    ]);
    // one fix heals both failures: the attempt is on whichever was asked first
    const attempts = report.projects[0]!.failures.flatMap((f) => f.attempts);
    expect(attemptOf(report, TABLE).outcome).toBe('healed');
    expect(attempts.map((x) => [x.verdict, x.expectationChanged])).toEqual([['healed', false]]);
    expect(report.exitCode).toBe(0);
    expect(await readFile(join(root, 'tests/test_calc.py'), 'utf8')).toContain('assert got == want');
  }, 180_000);
});
