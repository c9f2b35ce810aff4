import type { Failure } from '../api/contracts/failure.js';
import type { Validation } from '../api/contracts/report.js';
import type { RunResult } from '../api/contracts/run-result.js';
import {
  familiesOf,
  familyOf,
  familySelection,
  renamedCases,
  vanishedFamilies,
  type Family,
  type RenamedCases,
} from './renamed-cases.js';
import { selectionOf, type RoundRunner } from './rounds.js';
import { notHealedReason } from './run-evidence.js';
import type { GateProject } from './types.js';

/**
 * Re-runs a failure's tests after a patch was applied. Passed means every one of them ran and
 * passed, the failure's fingerprint is gone, and (for a build failure) the build is clean. A case
 * that did not run because the patch renamed it (a parametrize row whose values it changed, in
 * one of the `edited` files) is looked for in its family, at the cost of one more run.
 */
export async function validateRun(
  project: GateProject,
  rounds: RoundRunner,
  failure: Failure,
  /** Project-relative files the patch changed. */
  edited: ReadonlySet<string> = new Set(),
): Promise<Validation> {
  const selection = selectionOf(project, failure);
  const result = await rounds.run('retry', selection);
  if (!selection) return judge(rounds, failure, result);
  const families = vanishedFamilies(failure, result, initialTests(rounds), edited);
  if (families.size === 0) return judge(rounds, failure, result);
  return runFamilies(rounds, failure, selection, families);
}

/**
 * Runs the failure's tests once more as `validation` ran them last (a renamed case by its
 * family) and judges that run the same way: the differential check's run.
 */
export async function rerunAsValidated(
  project: GateProject,
  rounds: RoundRunner,
  failure: Failure,
  validation: Validation,
): Promise<Validation> {
  const selection = selectionOf(project, failure);
  const families = familiesOf(Object.keys(validation.renamed ?? {}), initialTests(rounds));
  if (!selection || families.size === 0) return judge(rounds, failure, await rounds.run('retry', selection));
  return runFamilies(rounds, failure, selection, families);
}

/** The tests a validation held to pass: the failure's own, a renamed case by what it became. */
export function validatedTests(failure: Failure, validation: Validation): string[] {
  return failure.tests.flatMap((id) => validation.renamed?.[id] ?? [id]);
}

function initialTests(rounds: RoundRunner): RunResult['tests'] {
  return rounds.rounds.find((r) => r.kind === 'initial')?.tests ?? [];
}

async function runFamilies(
  rounds: RoundRunner,
  failure: Failure,
  selection: readonly string[],
  families: ReadonlyMap<string, { family: Family; ids: readonly string[] }>,
): Promise<Validation> {
  // the whole selection again: pytest runs nothing when one id of it is not found
  const result = await rounds.run('retry', familySelection(selection, families));
  return judge(rounds, failure, result, renamedCases(families, result, initialTests(rounds)));
}

async function judge(
  rounds: RoundRunner,
  failure: Failure,
  result: RunResult,
  renaming?: RenamedCases,
): Promise<Validation> {
  const newFailures = (await rounds.analyze(result)).failures;
  const byId = new Map(result.tests.map((t) => [t.id, t]));
  const renamed = renaming?.renamed ?? {};
  // healed only by a pass: a skip, an xfail or no result at all is not one
  const stillFailing: Validation['stillFailing'] = failure.tests.flatMap((id) => {
    if (id in renamed) return [];
    const test = byId.get(id);
    return test?.status === 'passed' ? [] : [{ id, message: notHealedReason(test) }];
  });
  if (renaming) stillFailing.push(...renamedFailing(failure, renaming, initialTests(rounds)));
  const sameCause = newFailures.some((f) => f.fingerprint === failure.fingerprint);
  const buildErrors = result.diagnostics.some((d) => d.severity === 'error');
  const passed =
    result.status !== 'error' &&
    result.status !== 'timeout' &&
    stillFailing.length === 0 &&
    !sameCause &&
    !(failure.blocksAll && buildErrors);
  return {
    passed,
    command: result.command,
    durationMs: result.durationMs,
    stillFailing,
    fingerprints: newFailures.map((f) => f.fingerprint).sort(),
    ...(result.error ? { error: result.error } : {}),
    ...(!passed && newFailures.length > 0
      ? {
          error: newFailures
            .map((f) => `${f.kind}: ${f.title}`)
            .slice(0, 5)
            .join('\n'),
        }
      : {}),
    ...(renaming ? { renamed } : {}),
  };
}

/**
 * A renamed case's family: a vanished case that no new case replaced (its row was deleted) did
 * not run, and every new case must pass, as which new row was which old one cannot be told. The
 * family's other cases must still pass where they passed at first (one that failed at first is
 * another failure's, one skipped at first is a row marked skip).
 */
function renamedFailing(
  failure: Failure,
  { renamed, cases }: RenamedCases,
  initial: RunResult['tests'],
): Validation['stillFailing'] {
  const before = new Map(initial.map((t) => [t.id, t.status]));
  const out: Validation['stillFailing'] = [];
  for (const [id, fresh] of Object.entries(renamed))
    if (fresh.length === 0)
      out.push({
        id,
        message: `did not run, and no new case of ${familyOf(id) ?? 'its test'} took its place (its parametrize row was removed?)`,
      });
  for (const t of cases) {
    // the failure's own cases that still exist are judged with its other tests
    if (t.status === 'passed' || failure.tests.includes(t.id)) continue;
    const was = before.get(t.id);
    if (was === undefined || was === 'passed') out.push({ id: t.id, message: notHealedReason(t) });
  }
  return out;
}

/**
 * What a patch that did not heal caused, for the next attempt's history: the new failures and the
 * tests still failing with the start of their messages (the report keeps only the short reason).
 */
export function validationOutcome(v: Validation): string {
  const lines = [v.error ?? `${v.stillFailing.length} test(s) still failing`];
  if (v.stillFailing.length > 0) lines.push('Still failing:');
  for (const t of v.stillFailing.slice(0, 5)) {
    const message = t.message?.trim().split('\n').slice(0, 8).join('\n    ').slice(0, 800);
    lines.push(`- ${t.id}${message ? `: ${message}` : ''}`);
  }
  if (v.stillFailing.length > 5) lines.push(`- ... and ${v.stillFailing.length - 5} more`);
  return lines.join('\n');
}
