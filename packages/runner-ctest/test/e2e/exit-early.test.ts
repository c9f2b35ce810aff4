import { scriptedFixer } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, copy, edit, run, gate } from './support.js';

afterAll(cleanup);

const EXIT = { search: 'return a - b;', replace: 'std::exit(0);' };

describe('a GoogleTest program that exits 0 in the code under test', () => {
  it('is not green: the case that was running crashed with that reason, the cases after it are not passed', async () => {
    const root = await copy('exit-early');
    await edit(root, 'src/calc.cpp', EXIT.search, EXIT.replace);
    const result = await run(root);
    expect(result.status).not.toBe('passed');
    const byId = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    // the discovered case: CTest says Passed, GoogleTest never printed [ OK ]
    expect(byId['Calc.Adds']).toMatchObject({
      status: 'crashed',
      message: expect.stringContaining('exited with code 0 while this test ran'),
    });
    expect(byId['Calc.Twice']).toMatchObject({ status: 'passed' });
    // the whole binary: the running case crashed; the case after it ran in a new process
    const whole = result.tests.filter((t) => t.id.startsWith('whole'));
    expect(whole.map((t) => [t.name, t.status])).toEqual([
      [expect.stringContaining('Calc.Adds'), 'crashed'],
      [expect.stringContaining('Calc.Twice'), 'passed'],
    ]);
    expect(whole[0]!.message).toContain('before GoogleTest reported its result');
  }, 300_000);

  it('a scripted "heal" that calls std::exit(0), let past the guard, fails validation and the gate exits 1', async () => {
    const root = await copy('exit-early');
    const fixer = scriptedFixer(
      Array(10).fill({
        verdict: 'edits',
        rationale: 'end the program before the assertion',
        edits: [{ file: 'src/calc.cpp', ...EXIT }],
      }),
    );
    // the guard refuses an exit added to code under test; allowed, the run still does not take it for a pass
    const report = await gate(root, { fixers: [fixer], heal: { maxAttempts: 1, allowTestWeakening: true } });
    expect(report.exitCode).toBe(1);
    const project = report.projects[0]!;
    expect(project.status).not.toBe('completed');
    expect(project.failures.some((f) => f.outcome === 'healed')).toBe(false);
    const adds = project.failures.find((f) => f.failure.tests.includes('Calc.Adds'))!;
    expect(adds.attempts[0]).toMatchObject({ verdict: 'failed-validation', validation: { passed: false } });
    expect(adds.attempts[0]!.validation!.stillFailing.map((t) => t.id)).toContain('Calc.Adds');
  }, 600_000);
});
