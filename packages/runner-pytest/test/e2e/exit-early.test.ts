import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, gate, repoWith } from './gate-support.js';

afterAll(cleanup);

const ADDS = 'tests/test_calc.py::test_adds';
const TWICE = 'tests/test_calc.py::test_twice';

// The guard refuses an os._exit added to code under test (tampering.test.ts); with it allowed,
// these show that the run itself still does not take the exit for a pass.
describe('os._exit(0) in the code under test, with heal.allowTestWeakening set', () => {
  it('a "heal" that exits 0 while the failing test runs fails validation: the test crashed, exit 1', async () => {
    const { repo, root } = await repoWith('exit-early');
    const fixer = scriptedFixer(
      Array(5).fill({
        verdict: 'edits',
        rationale: 'end the process before the assertion',
        edits: [{ file: 'calc/core.py', search: '    return a - b', replace: '    os._exit(0)' }],
      }),
    );
    const report = await gate({
      repo,
      root,
      fixers: [fixer],
      heal: { maxAttempts: 1, flakyReruns: 0, allowTestWeakening: true },
    });
    expect(report.exitCode).toBe(1);
    const adds = report.projects[0]!.failures.find((f) => f.failure.tests.includes(ADDS))!;
    expect(adds.outcome).toBe('exhausted');
    expect(adds.attempts[0]).toMatchObject({ verdict: 'failed-validation' });
    expect(adds.attempts[0]!.validation!.stillFailing).toEqual([
      { id: ADDS, message: expect.stringContaining('exited with code 0 while this test ran') },
    ]);
  }, 120_000);

  it('a heal that fixes the failing test and exits 0 in another is reverted by the regression run', async () => {
    const { repo, root } = await repoWith('exit-early');
    const fixer = scriptedFixer([
      {
        verdict: 'edits',
        rationale: 'fix add, and end the process in twice',
        edits: [
          { file: 'calc/core.py', search: '    return a - b', replace: '    return a + b' },
          { file: 'calc/core.py', search: '    return a * 2', replace: '    os._exit(0)' },
        ],
      },
    ]);
    const report = await gate({
      repo,
      root,
      fixers: [fixer],
      heal: { maxAttempts: 1, flakyReruns: 0, maxFilesPerAttempt: 2, allowTestWeakening: true },
    });
    expect(report.exitCode).toBe(1);
    const project = report.projects[0]!;
    const adds = project.failures.find((f) => f.failure.tests.includes(ADDS))!;
    expect(adds.outcome).toBe('reverted');
    expect(adds.broke).toEqual([TWICE]);
    const regression = project.rounds.find((r) => r.kind === 'regression')!;
    expect(regression.tests.find((t) => t.id === TWICE)).toMatchObject({ status: 'crashed' });
  }, 120_000);
});
