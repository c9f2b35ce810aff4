import type { FailureReport, GateReport, ProjectReport, Round } from '../api/contracts/report.js';
import { lastFullRound } from './final-tests.js';

/**
 * The round that describes the tree being gated. In check mode suture never writes the user's
 * tree, so the tests stand as the initial run found them, healed or not; in fix mode the last
 * full run (the regression run, on the healed tree) does.
 */
export function gatedRound(project: ProjectReport, mode: GateReport['mode']): Round | undefined {
  if (mode === 'check') return project.rounds.find((r) => r.kind === 'initial') ?? lastFullRound(project);
  return lastFullRound(project);
}

export interface TestNote {
  /** A validated fix exists in the run's patch, not applied to the tree (check mode). */
  fixAvailable: boolean;
  /** The fix that heals it changes an expected value in a test. */
  expectationChanged: boolean;
}

/** What the reports say next to each test of a healed failure group. */
export function testNotes(project: ProjectReport, mode: GateReport['mode']): Map<string, TestNote> {
  const notes = new Map<string, TestNote>();
  for (const f of project.failures) {
    if (f.outcome !== 'healed') continue;
    const changed = expectationChanged(f);
    for (const id of f.failure.tests)
      notes.set(id, { fixAvailable: mode === 'check', expectationChanged: changed });
  }
  return notes;
}

export function expectationChanged(f: FailureReport): boolean {
  return f.attempts.some((a) => a.verdict === 'healed' && a.expectationChanged);
}
