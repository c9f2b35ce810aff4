import type { GateReport, ProjectReport } from '../api/contracts/report.js';
import { summarizeFiles } from './file-summary.js';

export interface FinishOptions {
  /** false: failures that remain do not fail the gate (`blocking: false`, `suture run --no-block`). */
  blocking: boolean;
}

/** A project that keeps the gate from passing: anything but completed, or healed in fix mode. */
export function blocks(project: ProjectReport, mode: GateReport['mode']): boolean {
  return project.status !== 'completed' && !(mode === 'fix' && project.status === 'healed');
}

/**
 * The last step of a gate: adds what is derived from the finished report (the per-file summary)
 * and applies `blocking: false`. Without blocking, failures that remain exit 0 and the report
 * keeps the outcome that would have blocked; an internal error (3) keeps its code, since a gate
 * that did not run cannot say nothing failed.
 */
export function finishReport(report: GateReport, options: FinishOptions): GateReport {
  const finished: GateReport = { ...report, files: summarizeFiles(report), blocking: options.blocking };
  if (options.blocking || report.exitCode !== 1) return finished;
  return {
    ...finished,
    exitCode: 0,
    wouldBlock: {
      exitCode: 1,
      stillFailing: report.totals.stillFailing,
      projects: report.projects
        .filter((p) => blocks(p, report.mode))
        .map((p) => ({ name: p.name, status: p.status })),
    },
  };
}
