import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADDS = 'tests/test_calc.py::test_adds';
const HOOK = `import pytest


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
`;

describe('weakening proposals on a real pytest project', () => {
  it.each([
    [
      'assert rewritten to assert True',
      { file: 'tests/test_calc.py', search: 'assert add(2, 3) == 5', replace: 'assert True' },
      /can no longer fail|constant|removes 1 assertion/,
    ],
    [
      'except (ValueError, AssertionError): pass',
      {
        file: 'tests/test_calc.py',
        search: '    assert add(2, 3) == 5',
        replace:
          '    try:\n        assert add(2, 3) == 5\n    except (ValueError, AssertionError):\n        pass',
      },
      /swallows its failure/,
    ],
    [
      'a new conftest hook that marks every test passed',
      { file: 'tests/conftest.py', content: HOOK },
      /a pytest hook.*heal\.allowTestWeakening/,
    ],
  ])(
    'refuses %s: the tree is left as it was and the gate exits 1',
    async (_name, edit, reason) => {
      const { repo, root } = await repoWith('exit-early');
      const test = await readFile(join(root, 'tests/test_calc.py'), 'utf8');
      const fixer = scriptedFixer(
        Array(3).fill({ verdict: 'edits', rationale: 'make it green', edits: [edit] }),
      );
      const report = await gate({
        repo,
        root,
        mode: 'fix',
        fixers: [fixer],
        heal: { maxAttempts: 1, flakyReruns: 0, allowNewFiles: true },
      });
      expect(report.exitCode).toBe(1);
      const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS))!;
      expect(adds.outcome).not.toBe('healed');
      expect(adds.attempts[0]!.verdict).toBe('refused');
      expect(adds.attempts[0]!.reason).toMatch(reason);
      expect(await readFile(join(root, 'tests/test_calc.py'), 'utf8')).toBe(test);
    },
    120_000,
  );

  it('accepts a changed expected value and flags it', async () => {
    const { repo, root } = await repoWith('exit-early');
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'the test expected the wrong value',
        edits: [
          { file: 'tests/test_calc.py', search: 'assert add(2, 3) == 5', replace: 'assert add(2, 3) == -1' },
        ],
      },
    ]);
    const report = await gate({
      repo,
      root,
      mode: 'fix',
      fixers: [fixer],
      heal: { maxAttempts: 1, flakyReruns: 0 },
    });
    const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS))!;
    expect(adds.outcome).toBe('healed');
    expect(adds.attempts[0]!.expectationChanged).toBe(true);
    expect(report.exitCode).toBe(0);
  }, 120_000);
});
