import type { FailureReport, GateReport, ProjectReport, Round } from '../api/contracts/report.js';
import type { RunStatus } from '../api/contracts/run-result.js';
import { projectStatus, projectTotals } from './totals.js';

/** The run id of one of n shards: `20260101-120000-abcd-shard2of4`. */
const SHARD = /-shard(\d+)of(\d+)$/;

interface Source {
  source: string;
  report: GateReport;
}

/**
 * Projects that shards of one split each gated a part of (a large project split by test file):
 * named in several runs, every one of them a different shard of the same count. Any other project
 * named twice is not a part, and merging it stays an error.
 */
export function projectParts(inputs: readonly Source[]): Set<string> {
  const holders = new Map<string, Array<{ index: number; count: number } | undefined>>();
  for (const { report } of inputs) {
    const m = SHARD.exec(report.runId);
    const shard = m ? { index: Number(m[1]), count: Number(m[2]) } : undefined;
    for (const p of report.projects) holders.set(p.name, [...(holders.get(p.name) ?? []), shard]);
  }
  const parts = new Set<string>();
  for (const [name, shards] of holders) {
    if (shards.length < 2 || shards.some((s) => !s)) continue;
    const counts = new Set(shards.map((s) => s!.count));
    const indexes = new Set(shards.map((s) => s!.index));
    if (counts.size === 1 && indexes.size === shards.length) parts.add(name);
  }
  return parts;
}

const SEVERITY: RunStatus[] = ['passed', 'failed', 'timeout', 'error'];

/** Rounds the parts ran side by side, as the one round a run over every file would have made. */
function mergeRounds(rounds: readonly Round[], kind: Round['kind']): Round {
  const errors = rounds.flatMap((r) => (r.error ? [r.error] : []));
  return {
    kind,
    status: rounds.map((r) => r.status).reduce((a, b) => (SEVERITY.indexOf(b) > SEVERITY.indexOf(a) ? b : a)),
    command: [...new Set(rounds.map((r) => r.command))].join('\n'),
    durationMs: Math.max(...rounds.map((r) => r.durationMs)),
    tests: rounds.flatMap((r) => r.tests),
    diagnostics: rounds.flatMap((r) => r.diagnostics),
    failures: [...new Set(rounds.flatMap((r) => r.failures))],
    ...(errors.length ? { error: errors.join('; ') } : {}),
  };
}

/** One root cause found in two parts (a bug reached from files in both) is one group. */
function mergeFailures(groups: readonly FailureReport[]): FailureReport[] {
  const byFingerprint = new Map<string, FailureReport>();
  for (const g of groups) {
    const seen = byFingerprint.get(g.failure.fingerprint);
    if (!seen) byFingerprint.set(g.failure.fingerprint, g);
    else
      byFingerprint.set(g.failure.fingerprint, {
        ...seen,
        failure: { ...seen.failure, tests: [...new Set([...seen.failure.tests, ...g.failure.tests])] },
      });
  }
  return [...byFingerprint.values()];
}

const lastFull = (p: ProjectReport): Round | undefined =>
  [...p.rounds].reverse().find((r) => r.kind === 'initial' || r.kind === 'regression');

/**
 * The report of a project split by test file, from the reports of its parts: one initial round
 * (every part's), the parts' retries, one final round when any part ran a regression run (each
 * part's last full run), failure groups joined by fingerprint, and totals, status and duration
 * derived again as the engine derives them. Returns why not when two parts ran the same test.
 */
export function foldParts(
  parts: ReadonlyArray<{ source: string; project: ProjectReport }>,
  mode: GateReport['mode'],
): ProjectReport | string {
  const ran = new Map<string, string>();
  for (const { source, project } of parts)
    for (const t of project.rounds.find((r) => r.kind === 'initial')?.tests ?? []) {
      const other = ran.get(t.id);
      if (other && other !== source)
        return `project "${project.name}" ran test ${t.id} in both ${other} and ${source}; merge the shards of one split only`;
      ran.set(t.id, source);
    }
  const projects = parts.map((p) => p.project);
  const initials = projects.flatMap((p) => p.rounds.filter((r) => r.kind === 'initial'));
  const finals = projects.map(lastFull).filter((r): r is Round => !!r);
  const regressed = finals.some((r) => r.kind === 'regression');
  const middle = projects.flatMap((p) => {
    const end = lastFull(p);
    return p.rounds.filter((r) => r.kind !== 'initial' && r !== end);
  });
  const rounds = [
    ...(initials.length ? [mergeRounds(initials, 'initial')] : []),
    ...middle,
    ...(regressed ? [mergeRounds(finals, 'regression')] : []),
  ];
  const failures = mergeFailures(projects.flatMap((p) => p.failures));
  const errors = projects.flatMap((p) => (p.error ? [p.error] : []));
  const error = errors.length ? errors.join('; ') : undefined;
  const gated = mode === 'check' ? rounds[0] : rounds.at(-1);
  return {
    ...projects[0]!,
    status: projectStatus(failures, error),
    rounds,
    failures,
    totals: projectTotals(gated, failures),
    durationMs: Math.max(...projects.map((p) => p.durationMs)),
    ...(error ? { error } : {}),
    pluginErrors: projects.flatMap((p) => p.pluginErrors),
  };
}

/**
 * Every project of the inputs once: a project split by test file folded from its parts, in the
 * order its first part came; throws what `foldParts` objects to, as the caller's error.
 */
export function projectsOf(
  inputs: readonly Source[],
  parts: ReadonlySet<string>,
  fail: (message: string) => Error,
): ProjectReport[] {
  const mode = inputs[0]?.report.mode ?? 'check';
  const out: ProjectReport[] = [];
  const split = new Map<string, Array<{ source: string; project: ProjectReport }>>();
  for (const { source, report } of inputs)
    for (const project of report.projects) {
      if (!parts.has(project.name)) out.push(project);
      else if (split.has(project.name)) split.get(project.name)!.push({ source, project });
      else {
        split.set(project.name, [{ source, project }]);
        out.push(project);
      }
    }
  return out.map((p) => {
    const pieces = split.get(p.name);
    if (!pieces) return p;
    const folded = foldParts(pieces, mode);
    if (typeof folded === 'string') throw fail(folded);
    return folded;
  });
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newLines: number;
  body: string;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

function hunks(diff: string): { head: string; hunks: Hunk[] } {
  const lines = diff.split(/(?<=\n)/);
  const first = lines.findIndex((l) => l.startsWith('@@'));
  const out: Hunk[] = [];
  for (let i = first; i >= 0 && i < lines.length;) {
    const m = HUNK.exec(lines[i]!.trimEnd())!;
    let j = i + 1;
    while (j < lines.length && !lines[j]!.startsWith('@@')) j++;
    out.push({
      oldStart: Number(m[1]),
      oldLines: m[2] === undefined ? 1 : Number(m[2]),
      newLines: m[4] === undefined ? 1 : Number(m[4]),
      body: `${m[5] ?? ''}\n${lines.slice(i + 1, j).join('')}`,
    });
    i = j;
  }
  return { head: lines.slice(0, first < 0 ? lines.length : first).join(''), hunks: out };
}

/**
 * One diff of a file from the diffs two parts of a split project made of it (two fixes in one
 * source file, each healed by its shard): their hunks in file order, the new line numbers moved by
 * what the hunks before them added or removed. Returns undefined when two different hunks touch
 * the same lines, which no single patch can hold.
 */
export function joinFileDiffs(a: string, b: string): string | undefined {
  if (a === b) return a;
  const left = hunks(a);
  const all = [...left.hunks, ...hunks(b).hunks]
    .filter((h, i, list) => list.findIndex((x) => x.oldStart === h.oldStart && x.body === h.body) === i)
    .sort((x, y) => x.oldStart - y.oldStart);
  let shift = 0;
  let end = 0;
  let out = left.head;
  for (const h of all) {
    if (h.oldStart < end) return undefined;
    end = h.oldStart + h.oldLines;
    const newStart = h.oldLines === 0 ? h.oldStart + shift + 1 : h.oldStart + shift;
    out += `@@ -${h.oldStart},${h.oldLines} +${newStart},${h.newLines} @@${h.body}`;
    shift += h.newLines - h.oldLines;
  }
  return out;
}
