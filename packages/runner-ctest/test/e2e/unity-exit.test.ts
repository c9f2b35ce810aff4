import { type Edit } from '@suture/core';
import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, edit, run, gate } from './support.js';

afterAll(cleanup);

const EXIT = { search: '  return a - b;', replace: '  exit(0);' };

async function healWith(edits: Edit[], heal: Record<string, unknown> = {}) {
  const root = await copy('unity-exit');
  const fixer = scriptedFixer(Array(10).fill({ verdict: 'edits', rationale: 'make it pass', edits }));
  return gate(root, { fixers: [fixer], heal: { maxAttempts: 1, ...heal }, parallel: 1 });
}

describe('a Unity test program that exits 0 before Unity reports its summary', () => {
  it('is not green: the entry crashed with that reason', async () => {
    const root = await copy('unity-exit');
    // each Unity test is a test of its own, passed or failed
    const failing = await run(root);
    expect(failing.tests.map((t) => [t.id, t.status])).toEqual([
      ['test_calc::test_add', 'failed'],
      ['test_calc::test_twice', 'passed'],
    ]);
    expect(failing.tests[0]).toMatchObject({
      file: 'tests/test_calc.c',
      line: 4,
      message: 'Expected 5 Was -1',
    });
    await edit(root, 'src/calc.c', EXIT.search, EXIT.replace);
    // CTest says Passed (exit code 0), but Unity never printed a result or its summary
    const result = await run(root);
    expect(result.status).not.toBe('passed');
    expect(result.tests).toEqual([
      expect.objectContaining({
        id: 'test_calc',
        status: 'crashed',
        message: expect.stringContaining('exited with code 0 before Unity reported its summary'),
        details: expect.objectContaining({ ctest: 'Passed' }),
      }),
    ]);
    // re-run as the gate validates a heal: the selected test crashed with the reason
    const selected = await run(root, { selection: ['test_calc::test_add'] });
    expect(selected.tests).toContainEqual(
      expect.objectContaining({
        id: 'test_calc::test_add',
        status: 'crashed',
        message: expect.stringContaining('before Unity reported its summary'),
      }),
    );
  }, 300_000);

  it('a "heal" that calls exit(0), let past the guard, fails validation; the true fix heals', async () => {
    // the guard refuses an exit added to code under test; allowed, the run still does not take it for a pass
    const cheat = await healWith([{ file: 'src/calc.c', ...EXIT }], { allowTestWeakening: true });
    expect(cheat.exitCode).toBe(1);
    const adds = cheat.projects[0]!.failures[0]!;
    expect(adds.outcome).not.toBe('healed');
    expect(adds.attempts[0]).toMatchObject({ verdict: 'failed-validation', validation: { passed: false } });
    expect(adds.attempts[0]!.validation!.stillFailing).toEqual([
      { id: 'test_calc::test_add', message: expect.stringContaining('before Unity reported its summary') },
    ]);

    const fix = await healWith([{ file: 'src/calc.c', search: 'return a - b;', replace: 'return a + b;' }]);
    expect(fix.projects[0]!.failures.map((f) => f.outcome)).toEqual(['healed']);
    expect(fix.projects[0]!.totals).toMatchObject({ tests: 2, passed: 2 });
    expect(fix.exitCode).toBe(0);
  }, 600_000);

  it('refuses a "heal" that returns from main before the tests run, by the weakening guard', async () => {
    const report = await healWith([
      { file: 'tests/test_calc.c', search: '  UNITY_BEGIN();', replace: '  return 0;\n  UNITY_BEGIN();' },
    ]);
    expect(report.exitCode).toBe(1);
    const adds = report.projects[0]!.failures[0]!;
    expect(adds.attempts[0]).toMatchObject({
      verdict: 'refused',
      reason: expect.stringMatching(
        /^test-weakening edit to tests\/test_calc\.c: .*main never runs test_add/,
      ),
    });
  }, 600_000);
});
