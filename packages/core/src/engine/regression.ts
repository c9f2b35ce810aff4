import type { Failure } from '../api/contracts/failure.js';
import type { RunResult } from '../api/contracts/run-result.js';
import { missingReason, missingTests } from './completeness.js';
import { expectedNow } from './renamed-cases.js';
import { failingIds, type RoundRunner } from './rounds.js';
import { redoWrites, undoWrites, type Conflict, type Heal, type TreeWriter } from './writes.js';

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
  // Tests that fail with none of the heals in place are not a heal's doing: flaky ones, or ones
  // that need what the sandbox withholds (the network, a variable it does not pass).
  const withoutHeals = new Set<string>();
  const broken = (): { ids: string[]; reason?: string } => {
    const missing = missingTests(expectedNow(ranBefore, kept), result).filter((id) => !withoutHeals.has(id));
    if (missing.length > 0)
      return {
        ids: missing,
        reason: missingReason(missing, new Set(ranBefore).size, result.tests.length),
      };
    const shouldPass = new Set(passedBefore);
    for (const h of kept)
      for (const id of [...(healedTests.get(h.failureId) ?? []), ...Object.values(h.renamed ?? {}).flat()])
        shouldPass.add(id);
    return { ids: [...failingIds(result)].filter((id) => shouldPass.has(id) && !withoutHeals.has(id)) };
  };
  const revertUntilGreen = async (): Promise<string[]> => {
    let newly = broken();
    for (; newly.ids.length > 0 && kept.length > 0; newly = broken()) {
      const heal = kept.pop()!;
      conflicts.push(...(await undoWrites(journal, heal.writes)));
      reverts.push({ heal, broke: newly.ids, ...(newly.reason ? { reason: newly.reason } : {}) });
      result = await rounds.run('regression');
      failures = (await rounds.analyze(result)).failures;
    }
    return newly.ids;
  };
  const left = await revertUntilGreen();
  if (left.length > 0 && reverts.length > 0) {
    // Every heal is undone and the tests still fail: the heals go back in, and those tests no
    // longer count against them.
    for (const id of left) withoutHeals.add(id);
    const undone = reverts.splice(0).reverse();
    for (const { heal } of undone) {
      conflicts.push(...(await redoWrites(journal, heal.writes)));
      kept.push(heal);
    }
    rounds.info.logger.warn(
      `${left.length} test(s) that passed in the first run fail with no heal in place, so they do not count against the heals: ${left.slice(0, 5).join(', ')}${left.length > 5 ? ', ...' : ''}. If they need the network or an environment variable, name the variable in "sandboxEnv" or set "sandbox" to "off"`,
    );
    result = await rounds.run('regression');
    failures = (await rounds.analyze(result)).failures;
    await revertUntilGreen();
  }
  return { kept, reverts, conflicts, final: { result, failures } };
}
