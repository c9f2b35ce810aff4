import type { FileState, FileSummary } from '../api/contracts/file-summary.js';
import type { FailureReport, GateReport, ProjectReport } from '../api/contracts/report.js';
import type { TestResult } from '../api/contracts/run-result.js';

/** The file of tests the runner located nowhere (a plain CTest executable). */
export const NO_FILE = '(no file)';

const didNotPass = (t: TestResult): boolean => t.status !== 'passed' && t.status !== 'skipped';

/** A test's file: as the runner gave it, else the path part of a `path::name` id (pytest's nodeid). */
function fileOf(id: string, known: ReadonlyMap<string, string>): string {
  const file = known.get(id);
  if (file) return file;
  const head = id.includes('::') ? id.slice(0, id.indexOf('::')) : '';
  return /\.\w+$/.test(head) && !/\s/.test(head) ? head : NO_FILE;
}

/** Files a failure group concerns: those of its tests, or its location when it names no test. */
function failureFiles(f: FailureReport, known: ReadonlyMap<string, string>): Set<string> {
  const files = new Set(f.failure.tests.map((id) => fileOf(id, known)));
  if (files.size === 0) files.add(f.failure.location?.file ?? NO_FILE);
  return files;
}

function stateOf(
  failed: number,
  unexplained: number,
  errors: FailureReport[],
  skippedAll: boolean,
): FileState {
  if (failed === 0 && errors.length === 0) return skippedAll ? 'skipped' : 'passed';
  if (unexplained > 0 || errors.length === 0) return 'failing';
  if (errors.every((e) => e.outcome === 'flaky')) return 'flaky';
  return errors.every((e) => e.outcome === 'healed' || e.outcome === 'flaky') ? 'healed' : 'failing';
}

/**
 * Files in code-unit order, the tests located nowhere last. Not localeCompare: its first call
 * loads ICU's collator, tens of milliseconds of every run.
 */
function byFileName([a]: [string, unknown], [b]: [string, unknown]): number {
  if (a === NO_FILE || b === NO_FILE) return a === b ? 0 : a === NO_FILE ? 1 : -1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function projectFiles(project: ProjectReport): FileSummary[] {
  const known = new Map<string, string>();
  for (const round of project.rounds) for (const t of round.tests) if (t.file) known.set(t.id, t.file);
  // the first full run says what the file holds; retries and regression runs re-run parts of it
  const first = project.rounds.find((r) => r.kind === 'initial') ?? project.rounds[0];
  const byFile = new Map<
    string,
    { tests: Map<string, TestResult>; rounds: number; failures: FailureReport[] }
  >();
  const entry = (
    file: string,
  ): { tests: Map<string, TestResult>; rounds: number; failures: FailureReport[] } => {
    let e = byFile.get(file);
    if (!e) byFile.set(file, (e = { tests: new Map(), rounds: 0, failures: [] }));
    return e;
  };
  for (const t of first?.tests ?? []) entry(fileOf(t.id, known)).tests.set(t.id, t);
  for (const round of project.rounds) {
    const files = new Set(round.tests.map((t) => fileOf(t.id, known)));
    for (const file of files) entry(file).rounds++;
  }
  for (const f of project.failures) for (const file of failureFiles(f, known)) entry(file).failures.push(f);

  const explained = new Set(project.failures.flatMap((f) => f.failure.tests));
  return [...byFile].sort(byFileName).map(([file, e]) => {
    const tests = [...e.tests.values()];
    const failing = tests.filter(didNotPass);
    return {
      project: project.name,
      file,
      tests: tests.length,
      failed: failing.length,
      errors: e.failures.map((f) => ({
        kind: f.failure.kind,
        message: f.failure.title,
        outcome: f.outcome,
      })),
      rounds: e.rounds,
      attempts: e.failures.reduce((n, f) => n + f.attempts.length, 0),
      state: stateOf(
        failing.length,
        failing.filter((t) => !explained.has(t.id)).length,
        e.failures,
        tests.length > 0 && tests.every((t) => t.status === 'skipped'),
      ),
    };
  });
}

/**
 * The gate's results per test file of each project, in project order and then by file: the one
 * place that answers "how did this file do", for report.json and the Markdown summary.
 */
export function summarizeFiles(report: Pick<GateReport, 'projects'>): FileSummary[] {
  return report.projects.flatMap(projectFiles);
}
