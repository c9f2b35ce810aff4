import { execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Edit, Fixer, FixProposalInput } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, gitStatus, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADDS = 'tests/test_calc.py::test_adds';
const ROW = 'tests/test_calc.py::test_mul[2-3-7]';
const TEST = 'tests/test_calc.py';

/** A fixer that answers each failure group by its first test, as a fixer that read it would. */
function byTest(answers: Record<string, Edit[]>): Fixer {
  return {
    name: 'by-test',
    apiVersion: 1,
    async propose(request): Promise<FixProposalInput> {
      const edits = answers[request.failure.tests[0]!];
      return edits
        ? { verdict: 'edits', rationale: 'the test and the code were both wrong', edits }
        : { verdict: 'unfixable', diagnosis: 'not scripted' };
    },
  };
}

function commitAll(repo: string): void {
  execFileSync(
    'git',
    ['-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-qam', 'more cases'],
    {
      cwd: repo,
    },
  );
}

const ADD_FIX: Edit = { file: 'calc/core.py', search: 'return a - b', replace: 'return a + b' };

describe('fixes that change tests, on a real pytest project', () => {
  it('keeps a code fix with a corrected expected value, and a corrected parametrize row, whose case is renamed', async () => {
    const { repo, root } = await repoWith('expected-values');
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [
        byTest({
          [ADDS]: [
            ADD_FIX,
            { file: TEST, search: 'assert add(2, 3) == 6', replace: 'assert add(2, 3) == 5' },
          ],
          [ROW]: [{ file: TEST, search: '(2, 3, 7)', replace: '(2, 3, 6)' }],
        }),
      ],
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const byId = new Map(report.projects[0]!.failures.map((f) => [f.failure.tests[0], f]));
    const adds = byId.get(ADDS)!;
    expect(adds.outcome).toBe('healed');
    expect(adds.attempts[0]!.expectationChanged).toBe(true);
    // the edited test still fails against the code as it was (-1 is not 5): the fix heals it
    expect(adds.attempts[0]!.differential).toMatchObject({ restored: ['app/calc/core.py'], passing: [] });
    const row = byId.get(ROW)!;
    expect(row.outcome).toBe('healed');
    expect(row.attempts[0]!.expectationChanged).toBe(true);
    expect(row.attempts[0]!.validation?.renamed).toEqual({ [ROW]: ['tests/test_calc.py::test_mul[2-3-6]'] });
    expect(report.exitCode).toBe(0);
    // the regression run reports the renamed case, not the old id, and keeps the heal
    const regression = report.projects[0]!.rounds.filter((r) => r.kind === 'regression');
    expect(regression).toHaveLength(1);
    expect(regression[0]!.tests.map((t) => [t.id, t.status])).toContainEqual([
      'tests/test_calc.py::test_mul[2-3-6]',
      'passed',
    ]);
    const test = await readFile(join(root, TEST), 'utf8');
    expect(test).toContain('assert add(2, 3) == 5');
    expect(test).toContain('(2, 3, 6)');
  }, 180_000);

  it('heals a corrected row while another case of the same function fails for a reason of its own', async () => {
    const { repo, root } = await repoWith('expected-values');
    // a row whose values mul cannot take: a TypeError, another failure than the wrong product
    const test = join(root, TEST);
    await writeFile(test, (await readFile(test, 'utf8')).replace('(3, 4, 12)', '(3, 4, 12), ("x", None, 0)'));
    commitAll(repo);
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [byTest({ [ROW]: [{ file: TEST, search: '(2, 3, 7)', replace: '(2, 3, 6)' }] })],
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const byId = new Map(report.projects[0]!.failures.map((f) => [f.failure.tests[0], f]));
    expect(byId.get('tests/test_calc.py::test_mul[x-None-0]')?.outcome).toBe('unfixable');
    const row = byId.get(ROW)!;
    expect(row.outcome).toBe('healed');
    expect(row.attempts[0]!.validation?.renamed).toEqual({ [ROW]: ['tests/test_calc.py::test_mul[2-3-6]'] });
  }, 180_000);

  it('refuses a test edit that alone makes the test pass beside a code edit: nothing is kept', async () => {
    const { repo, root } = await repoWith('expected-values');
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [
        byTest({
          // the observed value written into the test, with a code edit that changes nothing it runs
          [ADDS]: [
            { file: 'calc/core.py', search: 'def add(a, b):', replace: 'def add(a: int, b: int) -> int:' },
            { file: TEST, search: 'assert add(2, 3) == 6', replace: 'assert add(2, 3) == -1' },
          ],
        }),
      ],
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const adds = report.projects[0]!.failures.find((f) => f.failure.tests[0] === ADDS)!;
    expect(adds.outcome).not.toBe('healed');
    expect(adds.attempts[0]!.verdict).toBe('refused');
    expect(adds.attempts[0]!.reason).toMatch(
      /^the test edits alone make tests\/test_calc\.py::test_adds pass against the original code under test \(app\/calc\/core\.py as it was\)/,
    );
    expect(adds.attempts[0]!.differential?.passing).toEqual([ADDS]);
    expect(report.exitCode).toBe(1);
    expect(gitStatus(repo)).toBe('');
  }, 180_000);

  it.each([
    ['deleting its row', '', /^did not run, and no new case of .*::test_mul took its place/, ROW],
    [
      'changing its row and skipping the new case',
      'pytest.param(2, 3, 6, marks=pytest.mark.skip), ',
      /^was skipped/,
      'tests/test_calc.py::test_mul[2-3-6]',
    ],
  ])(
    'does not heal a failing case by %s, even with weakening allowed: no case ran and passed in its place',
    async (_name, replace, message, id) => {
      const { repo, root } = await repoWith('expected-values');
      const report = await gate({
        repo,
        root,
        mode: 'fix',
        fixers: [byTest({ [ROW]: [{ file: TEST, search: '(2, 3, 7), ', replace }] })],
        // the guard would refuse the edit first; the re-run must not take it either
        heal: { maxAttempts: 1, flakyReruns: 0, allowTestWeakening: true },
      });
      const row = report.projects[0]!.failures.find((f) => f.failure.tests[0] === ROW)!;
      expect(row.outcome).not.toBe('healed');
      expect(row.attempts[0]!.verdict).toBe('failed-validation');
      expect(row.attempts[0]!.validation?.stillFailing).toEqual([
        { id, message: expect.stringMatching(message) },
      ]);
      expect(report.exitCode).toBe(1);
      expect(gitStatus(repo)).toBe('');
    },
    180_000,
  );
});
