import type { Failure } from '../api/contracts/failure.js';
import type { Validation } from '../api/contracts/report.js';
import { selectionOf, type RoundRunner } from './rounds.js';
import { notHealedReason } from './run-evidence.js';
import type { GateProject } from './types.js';

/**
 * Re-runs a failure's tests after a patch was applied. Passed means every one of them ran and
 * passed, the failure's fingerprint is gone, and (for a build failure) the build is clean.
 */
export async function validateRun(
  project: GateProject,
  rounds: RoundRunner,
  failure: Failure,
): Promise<Validation> {
  const result = await rounds.run('retry', selectionOf(project, failure));
  const newFailures = (await rounds.analyze(result)).failures;
  const byId = new Map(result.tests.map((t) => [t.id, t]));
  // healed only by a pass: a skip, an xfail or no result at all is not one
  const stillFailing = failure.tests.flatMap((id) => {
    const test = byId.get(id);
    return test?.status === 'passed' ? [] : [{ id, message: notHealedReason(test) }];
  });
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
  };
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
