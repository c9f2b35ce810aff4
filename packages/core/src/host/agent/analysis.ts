import { posix, relative } from 'node:path';
import type { AnalysisFailure } from '../../api/contracts/heal.js';
import type { FailureReport, GateReport, ProjectReport } from '../../api/contracts/report.js';
import { toPosix } from '../../safety/paths.js';

/** Outcomes from best to worst, to say what became of a failure over several gates. */
const OUTCOME_ORDER = [
  'healed',
  'product-bug',
  'flaky',
  'quarantined',
  'reverted',
  'exhausted',
  'unfixable',
  'skipped',
];

function projectPrefix(report: GateReport, project: ProjectReport): string {
  return toPosix(relative(report.root, project.root));
}

const inRepo = (prefix: string, file: string): string => (prefix ? posix.join(prefix, file) : file);

/** One failure as an agent reads it: repository-relative places, the ranked scope, what became of it. */
export function analysisFailure(
  report: GateReport,
  project: ProjectReport,
  f: FailureReport,
  withOutcome: boolean,
): AnalysisFailure {
  const prefix = projectPrefix(report, project);
  const { failure } = f;
  const scope = f.scope?.entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => (b.e.score ?? -1) - (a.e.score ?? -1) || a.i - b.i)
    .slice(0, 10)
    .map(({ e }) => ({
      file: inRepo(prefix, e.file),
      role: e.role,
      symbols: e.ranking?.map((r) => r.symbol).slice(0, 8) ?? e.symbols.slice(0, 8),
      ...(e.score !== undefined ? { score: e.score } : {}),
      reasons: [...new Set(e.reasons)].slice(0, 4),
    }));
  return {
    id: failure.id,
    project: project.name,
    kind: failure.kind,
    title: failure.title,
    tests: failure.tests,
    ...(failure.location
      ? {
          location: {
            file: inRepo(prefix, failure.location.file),
            ...(failure.location.line ? { line: failure.location.line } : {}),
            ...(failure.location.symbol ? { symbol: failure.location.symbol } : {}),
          },
        }
      : {}),
    fingerprint: failure.fingerprint,
    repairable: failure.repairable,
    ...(withOutcome ? { outcome: f.outcome } : {}),
    ...((f.reason ?? failure.reason) ? { reason: f.reason ?? failure.reason } : {}),
    ...(scope && scope.length > 0 ? { scope } : {}),
  };
}

/** The failures of one or more gates over the same tree; a failure any gate healed reads healed. */
export function analysisOf(reports: readonly GateReport[], withOutcome = true): AnalysisFailure[] {
  const byId = new Map<string, AnalysisFailure>();
  for (const report of reports)
    for (const project of report.projects)
      for (const f of project.failures) {
        const next = analysisFailure(report, project, f, withOutcome);
        const known = byId.get(next.id);
        if (
          !known ||
          OUTCOME_ORDER.indexOf(next.outcome ?? 'skipped') < OUTCOME_ORDER.indexOf(known.outcome ?? 'skipped')
        )
          byId.set(next.id, next);
      }
  return [...byId.values()];
}

export function projectsOf(report: GateReport): Array<{ name: string; status: string; error?: string }> {
  return report.projects.map((p) => ({
    name: p.name,
    status: p.status,
    ...(p.error ? { error: p.error } : {}),
  }));
}
