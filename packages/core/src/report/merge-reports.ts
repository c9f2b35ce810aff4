import type { GateReport, ProjectReport } from '../api/contracts/report.js';
import { blocks, finishReport } from './finish-report.js';
import { emptyTotals, sumTotals } from './totals.js';
import { joinFileDiffs, projectParts, projectsOf } from './merge-parts.js';

/** One report to merge and where it came from (a run folder), for error messages. */
export interface MergeInput {
  source: string;
  report: GateReport;
}

export interface MergeOptions {
  /** The merged run's id (default: `merged-` + the earliest run id). */
  runId?: string;
  /** Project names in the order the merged report lists them (config order); others follow by name. */
  order?: readonly string[];
  runDir?: string;
}

/** A merge the inputs do not allow: two reports of one project, or of different modes. */
export class MergeError extends Error {
  override name = 'MergeError';
}

/** Splits a patch into its per-file diffs, keyed by path, so diffs of several runs sort as one run's do. */
function filePatches(patch: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const chunk of patch.split(/^(?=diff --git )/m)) {
    const file = /^diff --git a\/(.+?) b\//.exec(chunk)?.[1];
    if (file) out.set(file, chunk.endsWith('\n') || chunk === '' ? chunk : `${chunk}\n`);
  }
  return out;
}

function ordered(projects: ProjectReport[], order: readonly string[] | undefined): ProjectReport[] {
  const rank = (name: string): number => {
    const i = order?.indexOf(name) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...projects].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
}

/**
 * Combines the reports of runs that gated disjoint sets of projects (shards, Nx tasks) into the
 * report one run over all of them would have written: projects in config order, totals summed,
 * one patch sorted by file, the per-file summary and `blocking` derived again. The parts of a
 * project that shards of one split gated by test file are folded into one project. Throws a
 * MergeError when two reports gated the same project otherwise, or ran in different modes.
 */
export function mergeReports(inputs: readonly MergeInput[], options: MergeOptions = {}): GateReport {
  if (inputs.length === 0) throw new MergeError('nothing to merge: give at least one run folder');
  const mode = inputs[0]!.report.mode;
  const seen = new Map<string, string>();
  const parts = projectParts(inputs);
  for (const { source, report } of inputs) {
    if (report.mode !== mode)
      throw new MergeError(
        `${source} ran in ${report.mode} mode and ${inputs[0]!.source} in ${mode} mode; merge runs of one mode`,
      );
    for (const p of report.projects) {
      const other = seen.get(p.name);
      if (other && !parts.has(p.name))
        throw new MergeError(
          `project "${p.name}" is in both ${other} and ${source}; merge the runs of disjoint shards or tasks only`,
        );
      seen.set(p.name, source);
    }
  }
  const reports = inputs.map((i) => i.report);
  const projects = ordered(
    projectsOf(inputs, parts, (message) => new MergeError(message)),
    options.order,
  );
  const patches = new Map<string, string>();
  for (const r of reports)
    for (const [file, diff] of filePatches(r.patch)) {
      const earlier = patches.get(file);
      const joined = earlier === undefined ? diff : joinFileDiffs(earlier, diff);
      if (joined === undefined)
        throw new MergeError(
          `two runs patch the same lines of ${file} differently; merge them one at a time`,
        );
      patches.set(file, joined);
    }
  const patch = [...patches.keys()]
    .sort()
    .map((f) => patches.get(f)!)
    .join('');
  const startedAt = reports.map((r) => r.startedAt).sort()[0]!;
  const finishedAt = reports
    .map((r) => r.finishedAt)
    .sort()
    .at(-1)!;
  const errors = inputs.filter((i) => i.report.error).map((i) => `${i.source}: ${i.report.error}`);
  const internal = reports.some((r) => r.exitCode === 3);
  const blocking = reports.every((r) => r.blocking);
  const merged: GateReport = {
    schemaVersion: 2,
    runId: options.runId ?? `merged-${[...reports.map((r) => r.runId)].sort()[0]}`,
    root: reports[0]!.root,
    startedAt,
    finishedAt,
    durationMs: Math.max(0, Date.parse(finishedAt) - Date.parse(startedAt)),
    mode,
    projects,
    totals: projects.length ? sumTotals(projects) : emptyTotals(),
    patch,
    conflicts: reports.flatMap((r) => r.conflicts),
    exitCode: internal ? 3 : projects.some((p) => blocks(p, mode)) ? 1 : 0,
    blocking,
    files: [],
    ...(options.runDir ? { runDir: options.runDir } : {}),
    ...(errors.length ? { error: errors.join('; ') } : {}),
    pluginErrors: reports.flatMap((r) => r.pluginErrors),
  };
  return finishReport(merged, { blocking });
}
