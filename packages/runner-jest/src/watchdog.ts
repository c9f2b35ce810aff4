import type { JestEvent } from './events.js';
import type { Stuck } from './js-runner/stuck.js';
import type { Limit } from './limits.js';

/** A test that started and has not ended; `file` is absolute, as Jest names it. */
export interface RunningTest {
  file: string;
  /** The displayName of the Jest project it runs in, when it has one. */
  project?: string;
  fullName: string;
  ancestorTitles: string[];
  title?: string;
  startedAt: number;
}

export type Overdue =
  | { kind: 'test'; test: RunningTest; elapsedMs: number; limit: Limit; stuck?: Stuck }
  | {
      kind: 'file';
      file: string;
      /** The displayName of the Jest project the file runs in, when it has one. */
      project?: string;
      elapsedMs: number;
      limitMs: number;
      /** Where Jest does not report a test's start: the file's test that ended last. */
      lastEnded?: string;
      /** Whether this Jest reports each test's start: Jest before 29.6 does not, so a test that blocks shows as time outside any test. */
      startsReported: boolean;
    };

export interface WatchdogLimits {
  test(test: RunningTest, jestTimeout: number | undefined): Limit;
  fileGap(file: string, jestTimeout: number | undefined): number;
}

const key = (file: string, fullName: string, project: string | undefined): string =>
  `${project ?? ''}\0${file}\0${fullName}`;
const fileKey = (file: string, project: string | undefined): string => `${project ?? ''}\0${file}`;

/**
 * Follows the reporter's events and says which tests (or test files, outside any test) have run
 * past their limit. Times are the reporter's own clock readings, on the same machine.
 */
export class Watchdog {
  private readonly tests = new Map<string, RunningTest>();
  /** Files that started and have not ended: when their last test ended (or they started), and how many tests are open. */
  private readonly files = new Map<
    string,
    { file: string; project?: string; idleSince: number; open: number; lastEnded?: string }
  >();
  private jestTimeout: number | undefined;
  /** A test ended that was never said to start: this Jest has no onTestCaseStart. */
  private startsMissing = false;

  constructor(private readonly limits: WatchdogLimits) {}

  observe(e: JestEvent): void {
    switch (e.event) {
      case 'run-start':
        this.jestTimeout = e.testTimeout;
        return;
      case 'file-start':
        this.files.set(fileKey(e.file, e.project), {
          file: e.file,
          ...(e.project !== undefined ? { project: e.project } : {}),
          idleSince: e.at,
          open: 0,
        });
        return;
      case 'test-start': {
        const { file, project, fullName, ancestorTitles, title } = e;
        this.tests.set(key(file, fullName, project), {
          file,
          ...(project !== undefined ? { project } : {}),
          fullName,
          ancestorTitles,
          title,
          startedAt: e.at,
        });
        const f = this.files.get(fileKey(file, project));
        if (f) f.open++;
        return;
      }
      case 'test-end': {
        const at = fileKey(e.file, e.project);
        const f = this.files.get(at);
        if (!this.tests.delete(key(e.file, e.result.fullName, e.project))) {
          // a skipped test never starts; one that ran without a start event says this Jest has
          // none, so the time since it ended may be another test's
          if (e.result.status !== 'passed' && e.result.status !== 'failed') return;
          this.startsMissing = true;
          if (f) this.files.set(at, { ...f, idleSince: e.at, lastEnded: e.result.fullName });
          return;
        }
        if (f) this.files.set(at, { ...f, idleSince: e.at, open: Math.max(0, f.open - 1) });
        return;
      }
      case 'file-end':
        this.files.delete(fileKey(e.file, e.project));
        for (const [k, t] of this.tests)
          if (t.file === e.file && t.project === e.project) this.tests.delete(k);
        return;
      default:
    }
  }

  /** Tests still running, oldest first: what a wall-clock kill interrupted. */
  running(): RunningTest[] {
    return [...this.tests.values()].sort((a, b) => a.startedAt - b.startedAt);
  }

  /** Test files that started and have not ended (each once per Jest project it runs in). */
  openFiles(): Array<{ file: string; project?: string }> {
    return [...this.files.values()].map((f) => ({
      file: f.file,
      ...(f.project !== undefined ? { project: f.project } : {}),
    }));
  }

  overdue(now: number): Overdue[] {
    const out: Overdue[] = [];
    for (const test of this.tests.values()) {
      const limit = this.limits.test(test, this.jestTimeout);
      const elapsedMs = now - test.startedAt;
      if (elapsedMs > limit.ms) out.push({ kind: 'test', test, elapsedMs, limit });
    }
    for (const f of this.files.values()) {
      if (f.open > 0) continue;
      const file = f.file;
      const limitMs = this.limits.fileGap(file, this.jestTimeout);
      const elapsedMs = now - f.idleSince;
      if (elapsedMs > limitMs)
        out.push({
          kind: 'file',
          file,
          ...(f.project !== undefined ? { project: f.project } : {}),
          elapsedMs,
          limitMs,
          startsReported: !this.startsMissing,
          ...(f.lastEnded !== undefined ? { lastEnded: f.lastEnded } : {}),
        });
    }
    return out;
  }
}
