import type { RunResult, TestResult } from '../../api/contracts/run-result.js';
import type { Candidate } from './types.js';

/** The tests of a run that belong to a generated file: by id prefix, by file, by CTest entry, by plan. */
export function testsOf(candidate: Candidate, run: RunResult): TestResult[] {
  const prefixes = [candidate.file, ...(candidate.entry ? [candidate.entry] : [])];
  return run.tests.filter(
    (t) =>
      t.file === candidate.file ||
      candidate.planned.includes(t.id) ||
      prefixes.some((p) => t.id === p || t.id.startsWith(`${p}::`)),
  );
}

const firstLine = (text: string | undefined): string => (text ?? '').trim().split('\n')[0] ?? '';

/**
 * Why the file does not build or load, or undefined when it does: an error diagnostic in the
 * file (a compiler error, a collection or import error, a suite that failed to run).
 */
export function compileError(
  candidate: Candidate,
  run: RunResult,
  blameUnattributed: boolean,
): string | undefined {
  const own = run.diagnostics.find((d) => d.severity === 'error' && d.file === candidate.file);
  if (own) return `${own.file}${own.line ? `:${own.line}` : ''}: ${firstLine(own.message)}`;
  const tests = testsOf(candidate, run);
  if (
    tests.length > 0 &&
    tests.every((t) => t.status === 'error') &&
    !run.tests.some((t) => t.status === 'passed')
  ) {
    const t = tests[0]!;
    return `${t.id}: ${firstLine(t.message) || 'did not load'}`;
  }
  // a build error that names no generated file blames the files whose tests did not run, but
  // only once no file is named: one file's error stops the others' build too
  if (blameUnattributed && tests.length === 0 && run.diagnostics.some((d) => d.severity === 'error')) {
    const d = run.diagnostics.find((x) => x.severity === 'error')!;
    return `its tests did not run: ${d.file ? `${d.file}${d.line ? `:${d.line}` : ''}: ` : ''}${firstLine(d.message)}`;
  }
  return undefined;
}

export type RunOutcome = 'passed' | 'failed' | 'missing';

/** Passed only when the file's tests ran and every one passed (a skipped test is no pass). */
export function outcomeOf(candidate: Candidate, run: RunResult): { outcome: RunOutcome; message?: string } {
  const tests = testsOf(candidate, run);
  if (tests.length === 0) return { outcome: 'missing', message: run.error ?? 'none of its tests ran' };
  const bad = tests.find((t) => t.status !== 'passed');
  if (!bad) return { outcome: 'passed' };
  return {
    outcome: 'failed',
    message: `${bad.id} ${bad.status}${bad.message ? `: ${firstLine(bad.message)}` : ''}`,
  };
}
