import type { ProjectReport, Round } from '../api/contracts/report.js';

/** The last round that ran the whole suite: the regression run when there was one, else the initial run. */
export function lastFullRound(project: ProjectReport): Round | undefined {
  const full = project.rounds.filter((r) => r.kind !== 'retry');
  return full[full.length - 1];
}

/** Ids of the tests whose failure group was healed in this project. */
export function healedTests(project: ProjectReport): Set<string> {
  const ids = new Set<string>();
  for (const f of project.failures) if (f.outcome === 'healed') for (const t of f.failure.tests) ids.add(t);
  return ids;
}
