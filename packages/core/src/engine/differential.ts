import type { Failure, Scope } from '../api/contracts/failure.js';
import type { Differential, Validation } from '../api/contracts/report.js';
import type { RoundRunner } from './rounds.js';
import { isTestFile } from './test-files.js';
import type { GateProject } from './types.js';
import { rerunAsValidated, validatedTests } from './validate-run.js';
import type { PlannedWrite } from './validate.js';
import { redoWrites, undoWrites, type AppliedWrite, type Conflict, type TreeWriter } from './writes.js';

export interface DifferentialInput {
  project: GateProject;
  rounds: RoundRunner;
  /** The writer the attempt applied its patch through: the journal in place, or the view's. */
  journal: TreeWriter;
  failure: Failure;
  scope: Scope;
  /** The patch as checked (project-relative paths) and as applied, in the same order. */
  planned: readonly PlannedWrite[];
  applied: readonly AppliedWrite[];
  /** The validation the whole patch passed. */
  validation: Validation;
  signal: AbortSignal;
}

/**
 * `stands`: the patch is in place as it was validated. Otherwise all of it is undone (but what
 * the user changed meanwhile, kept and returned as conflicts) and `reason` says why.
 */
export type DifferentialOutcome = { record?: Differential; conflicts: Conflict[] } & (
  { stands: true } | { stands: false; reason: string }
);

const listed = (items: readonly string[]): string =>
  items.length <= 3 ? items.join(', ') : `${items.slice(0, 3).join(', ')} and ${items.length - 3} more`;

/**
 * The differential check: a patch that edits tests and code under test must heal through the
 * code. Once it passed validation, its code edits are put back to the bytes they replaced (the
 * heals kept before it stay) and the tests are run with the test edits alone. A test of the
 * failure that passes there was made to pass by its own edit, whatever the guard could read of
 * it: the patch is refused. Otherwise the code edits are written again, the bytes that passed.
 * It reads no language: any runner's tests are held to it, at the cost of one run.
 */
export async function differentialCheck(input: DifferentialInput): Promise<DifferentialOutcome> {
  const { project, failure, journal } = input;
  const test = input.planned.map((w) => isTestFile(w.file, project.analyzer, input.scope));
  const tests = input.applied.filter((_, i) => test[i]);
  const code = input.applied.filter((_, i) => !test[i]);
  // a config that allows weakening tests does not pay a run to find it
  if (tests.length === 0 || code.length === 0 || project.heal.allowTestWeakening)
    return { stands: true, conflicts: [] };
  const restored = code.map((w) => w.file);
  const refuse = async (
    reason: string,
    conflicts: Conflict[],
    record?: Differential,
  ): Promise<DifferentialOutcome> => ({
    stands: false,
    reason,
    conflicts: [...conflicts, ...(await undoWrites(journal, tests))],
    ...(record ? { record } : {}),
  });

  // what could be put back is; a file the user changed meanwhile keeps the user's version
  const putBack = await undoWrites(journal, code);
  if (putBack.length > 0)
    return refuse(
      `the test edits could not be run against the original code: ${listed(putBack.map((c) => c.file))} changed while suture ran; the proposal was undone`,
      putBack,
    );
  const run = await rerunAsValidated(project, input.rounds, failure, input.validation);
  const failing = new Set(run.stillFailing.map((t) => t.id));
  const checked = validatedTests(failure, input.validation);
  const passing = checked.filter((id) => !failing.has(id));
  const record: Differential = {
    restored,
    passing,
    ...(run.command !== undefined ? { command: run.command } : {}),
    ...(run.durationMs !== undefined ? { durationMs: run.durationMs } : {}),
    ...(run.error ? { error: run.error } : {}),
  };
  if (input.signal.aborted)
    return refuse(
      'the run was interrupted while the test edits were run against the original code; the proposal was undone',
      [],
      record,
    );
  if (passing.length > 0 || (checked.length === 0 && run.passed))
    return refuse(
      `the test edits alone make ${passing.length > 0 ? listed(passing) : 'the failure'} pass against the original code under test (${listed(restored)} as it was): the proposal changes what the tests check, not only the code; edit the code so that the unchanged tests pass, or change only an expected value that is wrong`,
      [],
      record,
    );
  const redone = await redoWrites(journal, code);
  if (redone.length > 0) {
    const kept = new Set(redone.map((c) => c.file));
    return refuse(
      `the code edits could not be written again after the differential check: ${listed([...kept])} changed while suture ran; the proposal was undone`,
      [
        ...redone,
        ...(await undoWrites(
          journal,
          code.filter((w) => !kept.has(w.file)),
        )),
      ],
      record,
    );
  }
  return { stands: true, conflicts: [], record };
}
