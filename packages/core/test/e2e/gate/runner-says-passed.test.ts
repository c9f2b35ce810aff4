import { describe, expect, it } from 'vitest';
import type { RunResultInput } from '../../../src/api/contracts/run-result.js';
import type { Runner } from '../../../src/api/plugin.js';
import { scriptedFixer } from '../../../src/testing/scripted-fixer.js';
import { scriptRunner } from '../../../src/testing/script-runner.js';
import { FIX_ADD, gate, project, sandboxes } from './support.js';

const { box } = sandboxes();

/**
 * A third-party runner that runs the calc tests for real and then says what its process's exit
 * code said, whatever its own results hold: `change` turns the real result into what it returns.
 */
function runnerSaying(change: (real: RunResultInput) => RunResultInput): Runner {
  const real = scriptRunner();
  return {
    ...real,
    name: 'exit-code-runner',
    run: async (ctx) => change((await real.run(ctx)) as RunResultInput),
  };
}

describe("a runner's passed that its own results contradict", () => {
  it('is red when a test in the list failed, and the round notes the correction', async () => {
    const b = await box();
    const runner = runnerSaying((r) => ({ ...r, status: 'passed', exitCode: 0 }));
    const report = await gate(b, [], { projects: [project(b.root, { runner })] });
    expect(report.exitCode).toBe(1);
    const p = report.projects[0]!;
    expect(p.status).toBe('failed');
    const initial = p.rounds[0]!;
    expect(initial.status).toBe('failed');
    expect(initial.statusCorrected).toEqual({
      from: 'passed',
      reason: expect.stringContaining('tests/add.test.mjs (failed)'),
    });
    // analysed as any failed run: the failing test is a failure of the report
    expect(p.failures.map((f) => f.failure.tests)).toEqual([['tests/add.test.mjs']]);
    expect(b.logs.some((l) => l.startsWith('warn exit-code-runner: the runner said the run passed'))).toBe(
      true,
    );
  }, 60_000);

  it('is red when fewer results came than the runner collected, with the reason as the error', async () => {
    const b = await box();
    // the run ended after its second test, exit code 0: the third never reported
    const runner = runnerSaying((r) => ({
      ...r,
      status: 'passed',
      exitCode: 0,
      collected: 3,
      tests: (r.tests ?? []).filter((t) => t.status === 'passed'),
    }));
    const report = await gate(b, [], { projects: [project(b.root, { runner })] });
    expect(report.exitCode).toBe(1);
    const p = report.projects[0]!;
    expect(p.status).toBe('failed');
    expect(p.rounds[0]!.statusCorrected?.reason).toContain(
      'reported 2 result(s) of the 3 test(s) it collected',
    );
    expect(p.error).toContain('reported 2 result(s) of the 3 test(s) it collected');
  }, 60_000);

  it('does not heal a failure whose validation run says passed with the test still failing', async () => {
    const b = await box();
    // the patch is wrong (add stays broken), and the runner's retry says passed anyway
    const runner = runnerSaying((r) => (r.selected ? { ...r, status: 'passed', exitCode: 0 } : r));
    const fixer = scriptedFixer([
      { verdict: 'edits', rationale: 'guess', edits: [{ ...FIX_ADD.edits[0], replace: 'return a * b;' }] },
    ]);
    const report = await gate(b, [fixer], {
      projects: [project(b.root, { runner, healConfig: { maxAttempts: 1, flakyReruns: 0 } })],
    });
    expect(report.exitCode).toBe(1);
    const [add] = report.projects[0]!.failures;
    expect(add!.outcome).toBe('exhausted');
    expect(add!.attempts[0]!.verdict).toBe('failed-validation');
    const retry = report.projects[0]!.rounds.find((r) => r.kind === 'retry')!;
    expect(retry).toMatchObject({ status: 'failed', statusCorrected: { from: 'passed' } });
  }, 60_000);

  it('stands when the results agree', async () => {
    const b = await box();
    const runner = runnerSaying((r) => ({ ...r, collected: r.tests?.length ?? 0 }));
    const fixer = scriptedFixer([FIX_ADD]);
    const report = await gate(b, [fixer], { projects: [project(b.root, { runner })] });
    expect(report.projects[0]!.failures[0]!.outcome).toBe('healed');
    expect(report.projects[0]!.rounds.every((r) => r.statusCorrected === undefined)).toBe(true);
  }, 60_000);
});
