import type { RunResult } from '@suture/core';
import { PassingTests } from '@suture/core/analysis';
import { testSymbol } from './analyze.js';
import type { TraceRequest } from './trace-memo.js';

/** What the analyzer saw of the latest run of each project. */
export interface TestsSeen {
  /** Passing tests of each test file. */
  passing: (root: string, file: string) => readonly string[];
  /** Every passing test. */
  allPassing: (root: string) => readonly string[];
  /** Every failing test: other groups' tests, traced along with a group's. */
  allFailing: (root: string) => readonly string[];
  /** How long a test took, in ms, when the run said. */
  duration: (root: string, id: string) => number | undefined;
  /** Whether the latest run of a test stopped it at its time limit: traced, it would hang again. */
  stuck: (root: string, id: string) => boolean;
}

/** The latest run of each project as the analyzer read it; a re-run of some tests updates only those. */
export class SeenTests implements TestsSeen {
  private readonly passed = new PassingTests();
  private readonly failed = new Map<string, Set<string>>();
  private readonly took = new Map<string, Map<string, number>>();
  private readonly timedOut = new Map<string, Set<string>>();

  record(root: string, result: RunResult): void {
    this.passed.record(root, result, (t) => testSymbol(t.id).file);
    const failed = this.failed.get(root) ?? new Set<string>();
    const took = this.took.get(root) ?? new Map<string, number>();
    const timedOut = this.timedOut.get(root) ?? new Set<string>();
    for (const t of result.tests) {
      if (t.status === 'passed' || t.status === 'skipped') failed.delete(t.id);
      else failed.add(t.id);
      if (t.status === 'timeout') timedOut.add(t.id);
      else timedOut.delete(t.id);
      if (t.durationMs !== undefined) took.set(t.id, t.durationMs);
    }
    this.failed.set(root, failed);
    this.took.set(root, took);
    this.timedOut.set(root, timedOut);
  }

  stuck(root: string, id: string): boolean {
    return this.timedOut.get(root)?.has(id) ?? false;
  }

  passing(root: string, file: string): readonly string[] {
    return this.passed.of(root, file);
  }

  allPassing(root: string): readonly string[] {
    return this.passed.all(root);
  }

  allFailing(root: string): readonly string[] {
    return [...(this.failed.get(root) ?? [])];
  }

  duration(root: string, id: string): number | undefined {
    return this.took.get(root)?.get(id);
  }
}

/** Passing tests traced with the failing ones: the more, the sharper the spectrum. */
const MAX_PASSING_TRACED = 48;
const MIN_NEAR_PASSING = 8;
/** Other failing tests of a run traced along with a group's, and passing tests with each. */
const MAX_PREFETCHED_FAILING = 24;
const PREFETCHED_PASSING = 8;
/**
 * How much slower a test runs under the tracer, roughly: a Python call per function call. The
 * tests a group needs get half the trace's time, the tests taken along a quarter, so a slow test
 * is left out rather than the whole trace cut short (a stress test of seconds, traced, was).
 */
const TRACE_SLOWDOWN = 5;
const NEEDED_SHARE = 0.5;
const PREFETCH_SHARE = 0.25;
/** A test the run gave no duration is taken to be quick. */
const UNKNOWN_MS = 50;

/** Passing tests to trace: the other cases of the failing tests' own functions first. */
function passingToTrace(failing: readonly string[], passing: readonly string[]): string[] {
  const base = (id: string): string => id.replace(/\[.*$/, '');
  const own = new Set(failing.map(base));
  return [...passing.filter((id) => own.has(base(id))), ...passing.filter((id) => !own.has(base(id)))].slice(
    0,
    MAX_PASSING_TRACED,
  );
}

/** The passing tests traced for failing tests: of their own files, or of the suite when those have few. */
function passingFor(failing: readonly string[], root: string, seen: TestsSeen): string[] {
  const files = [...new Set(failing.map((id) => testSymbol(id).file))];
  const near = files.flatMap((f) => seen.passing(root, f));
  // a test file with few passing tests (one test looping over cases) borrows from the others
  const far = near.length < MIN_NEAR_PASSING ? seen.allPassing(root).filter((id) => !near.includes(id)) : [];
  return passingToTrace(failing, [...near, ...far]);
}

/** Other failing tests of the run, each with its passing neighbours: what other groups' scopes trace. */
function prefetchFor(failing: readonly string[], root: string, seen: TestsSeen): string[] {
  const others = seen.allFailing(root).filter((id) => !failing.includes(id) && !seen.stuck(root, id));
  const out = new Set<string>();
  for (const id of others.slice(0, MAX_PREFETCHED_FAILING)) {
    out.add(id);
    for (const p of passingFor([id], root, seen).slice(0, PREFETCHED_PASSING)) out.add(p);
  }
  return [...out];
}

/** The tests, in order, whose traced run fits `budgetMs`; a test that does not fit is passed over. */
function fitting(ids: readonly string[], root: string, seen: TestsSeen, budgetMs: number): string[] {
  const out: string[] = [];
  let left = budgetMs;
  for (const id of ids) {
    const cost = (seen.duration(root, id) ?? UNKNOWN_MS) * TRACE_SLOWDOWN;
    if (cost > left) continue;
    left -= cost;
    out.push(id);
  }
  return out;
}

/**
 * What a group's scope traces: its failing tests, passing tests of the same files (the other
 * cases of the same test functions first), and other failing tests of the run with their own
 * passing neighbours, each within its share of the trace's time by the durations the run measured.
 * A test its time limit stopped is never traced: it would hang again and take the whole trace
 * with it. A group whose failing tests all hung traces nothing.
 */
export function traceRequest(
  allFailing: readonly string[],
  root: string,
  seen: TestsSeen,
  limitMs: number,
): TraceRequest {
  const failing = allFailing.filter((id) => !seen.stuck(root, id));
  if (failing.length === 0) return { failing: [], passing: [], prefetch: [] };
  const failingCost = failing.reduce((n, id) => n + (seen.duration(root, id) ?? UNKNOWN_MS), 0);
  const passing = fitting(
    passingFor(failing, root, seen),
    root,
    seen,
    limitMs * NEEDED_SHARE - failingCost * TRACE_SLOWDOWN,
  );
  const prefetch = fitting(
    prefetchFor(failing, root, seen).filter((id) => !passing.includes(id)),
    root,
    seen,
    limitMs * PREFETCH_SHARE,
  );
  return { failing, passing, prefetch };
}
