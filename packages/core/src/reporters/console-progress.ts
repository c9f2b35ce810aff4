import type { TestStatus } from '../api/contracts/run-result.js';
import type { Palette } from './console-colour.js';
import { bar, type Segment } from './console-live.js';

/** What the live view shows of one project: the run under way and the attempt, if any. */
export interface ProjectProgress {
  name: string;
  passed: number;
  failed: number;
  skipped: number;
  /** Tests the run under way is expected to report (the last run's count, an attempt's tests). */
  expected?: number;
  /** The run under way ended: its counts stay until the next run's first test. */
  closed: boolean;
  /** `attempt 2 on "title" with hints` while a fixer works or its patch is validated. */
  attempt?: string;
}

export function newProgress(name: string, expected?: number): ProjectProgress {
  return { name, passed: 0, failed: 0, skipped: 0, closed: false, ...(expected ? { expected } : {}) };
}

export function countTest(p: ProjectProgress, status: TestStatus): void {
  if (p.closed) {
    Object.assign(p, { passed: 0, failed: 0, skipped: 0, closed: false });
    delete p.expected;
  }
  if (status === 'passed') p.passed++;
  else if (status === 'skipped') p.skipped++;
  else p.failed++;
}

export function done(p: ProjectProgress): number {
  return p.passed + p.failed + p.skipped;
}

/** `py: 12 passed, 1 failed so far · 40 s`: a run's progress as a plain line of a log. */
export function plainProgressLine(p: ProjectProgress, elapsedMs: number): string {
  const skipped = p.skipped ? `, ${p.skipped} skipped` : '';
  const attempt = p.attempt ? ` · ${p.attempt}` : '';
  return `${p.name}: ${p.passed} passed, ${p.failed} failed${skipped} so far · ${Math.round(elapsedMs / 1000)} s${attempt}`;
}

/** `py: 12 passed, 1 failed · 13/40 tests [███░░░] · attempt 1 on "..." with hints`. */
export function progressLine(p: ProjectProgress, c: Palette): Segment[] {
  const line: Segment[] = [
    [`${p.name}: `, c.bold],
    [`${p.passed} passed`, p.passed ? c.green : undefined],
    [', '],
    [`${p.failed} failed`, p.failed ? c.red : undefined],
  ];
  if (p.skipped) line.push([`, ${p.skipped} skipped`, c.cyan]);
  const n = done(p);
  if (p.expected) {
    line.push([` · ${n}/${Math.max(p.expected, n)} tests `], ...bar(n, Math.max(p.expected, n), 12, c));
  } else line.push([` · ${n} tests`]);
  if (p.attempt) line.push([' · '], [p.attempt, c.yellow]);
  return line;
}
