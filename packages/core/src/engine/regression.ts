import type { Failure } from '../api/contracts/failure.js';
import type { RunResult } from '../api/contracts/run-result.js';
import { missingReason, missingTests } from './completeness.js';
import { failingIds, type RoundRunner } from './rounds.js';
import { undoWrites, type Conflict, type Heal, type TreeWriter } from './writes.js';

/** A heal undone by the regression run, and the tests it broke. */
export interface Revert {
  heal: Heal;
  broke: string[];
  /** Why it was undone, when not plainly "it broke these tests" (tests that stopped reporting). */
  reason?: string;
}

export interface RegressionResult {
  /** Heals that stay, in the order they were made. */
  kept: Heal[];
  /** Heals undone, newest first. */
  reverts: Revert[];
  conflicts: Conflict[];
  /** The last run of the whole suite: the tree as the run leaves it, and what the analyzer made of it. */
  final: { result: RunResult; failures: Failure[] };
}

/**
 * One run of the whole suite after the heals. A test that should pass (it passed at first, or a
 * heal made it pass) and fails now means a heal broke it: heals are reverted newest first until
 * no such test fails. Returns what it undid; the caller decides what that means for the reports.
 */
export async function regression(
  rounds: RoundRunner,
  journal: TreeWriter,
  initial: RunResult,
  heals: readonly Heal[],
  /** Heal (by its failure id) -> the tests it made pass: its own failure's and those that passed after it. */
  healedTests: ReadonlyMap<string, readonly string[]>,
): Promise<RegressionResult> {
  // A healed collection error may reveal tests that never ran before: their failures are not a
  // heal's doing, so only tests known to pass count: those that passed at first, and those a heal
  // still in place made pass.
  const passedBefore = new Set(initial.tests.filter((t) => t.status === 'passed').map((t) => t.id));
  const kept = [...heals];
  const reverts: Revert[] = [];
  const conflicts: Conflict[] = [];
  let result = await rounds.run('regression');
  let failures = (await rounds.analyze(result)).failures;
  // Every test the initial run reported must report again: a heal after which the suite reports
  // fewer tests made the test process end early, whatever its exit code said.
  const ranBefore = initial.tests.map((t) => t.id);
  const broken = (): { ids: string[]; reason?: string } => {
    const missing = missingTests(ranBefore, result);
    if (missing.length > 0)
      return {
        ids: missing,
        reason: missingReason(missing, new Set(ranBefore).size, result.tests.length),
      };
    const shouldPass = new Set(passedBefore);
    for (const h of kept) for (const id of healedTests.get(h.failureId) ?? []) shouldPass.add(id);
    return { ids: [...failingIds(result)].filter((id) => shouldPass.has(id)) };
  };
  for (let newly = broken(); newly.ids.length > 0 && kept.length > 0; newly = broken()) {
    const heal = kept.pop()!;
    conflicts.push(...(await undoWrites(journal, heal.writes)));
    reverts.push({ heal, broke: newly.ids, ...(newly.reason ? { reason: newly.reason } : {}) });
    result = await rounds.run('regression');
    failures = (await rounds.analyze(result)).failures;
  }
  return { kept, reverts, conflicts, final: { result, failures } };
}
