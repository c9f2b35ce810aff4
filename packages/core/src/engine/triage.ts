import type { Failure } from '../api/contracts/failure.js';
import { failingIds, selectionOf, type RoundRunner } from './rounds.js';
import type { GateProject } from './types.js';

/** Flaky triage: failing tests that pass when re-run are flaky and never reach a fixer. */
export async function triageFlaky(
  failures: readonly Failure[],
  project: GateProject,
  rounds: RoundRunner,
): Promise<Set<string>> {
  const flaky = new Set<string>();
  const candidates = failures.filter((f) => !f.blocksAll && f.tests.length > 0 && f.repairable);
  if (!project.runner.supportsSelection || project.heal.flakyReruns === 0 || candidates.length === 0)
    return flaky;
  const passedOnce = new Set<string>();
  for (let i = 0; i < project.heal.flakyReruns; i++) {
    const result = await rounds.run('retry', [...new Set(candidates.flatMap((f) => f.tests))], {
      purpose: 'flaky-triage',
    });
    for (const t of result.tests) if (t.status === 'passed') passedOnce.add(t.id);
  }
  for (const f of candidates) if (f.tests.every((t) => passedOnce.has(t))) flaky.add(f.id);
  return flaky;
}

/** Whether a failure's tests all run and pass now (a re-run of just them). */
export async function passesNow(
  failure: Failure,
  project: GateProject,
  rounds: RoundRunner,
): Promise<boolean> {
  const selection = selectionOf(project, failure);
  if (!selection) return false;
  const result = await rounds.run('retry', selection);
  if (result.status === 'error' || result.status === 'timeout') return false;
  const failing = failingIds(result);
  const ran = new Set(result.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  return failure.tests.every((id) => ran.has(id) && !failing.has(id));
}
