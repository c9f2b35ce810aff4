import type { Stuck } from '@suture/runner-jest/js-runner';
import type { VitestEvent } from './events.js';
import type { NamedTest } from './ids.js';
import type { Limit } from './limits.js';

/** A test that began and has not ended; `file` is absolute, as Vitest names it. */
export interface RunningTest {
  file: string;
  project?: string;
  names: string[];
  /** Vitest's task id: two tests of one file may have one full name. */
  id?: string;
  startedAt: number;
  /** The timeout Vitest gives it. */
  timeout?: number;
}

export type Overdue =
  | { kind: 'test'; test: RunningTest; elapsedMs: number; limit: Limit; stuck?: Stuck }
  | { kind: 'file'; file: string; project?: string; elapsedMs: number; limitMs: number; lastEnded?: string };

export interface WatchdogLimits {
  test(test: RunningTest): Limit;
  fileGap(): number;
}

const fileKey = (file: string, project: string | undefined): string => `${project ?? ''}\0${file}`;
const testKey = (e: NamedTest): string => `${fileKey(e.file, e.project)}\0${e.id ?? e.names.join('\0')}`;

/**
 * Follows the events and says which tests (or test files, outside any test) ran past their
 * limit. A test's start comes from its worker; its end from Vitest's main process, which may
 * report it late: within a file, tests run one after another (unless `concurrent`), so a test's
 * beginning also ends the one before it in that file.
 */
export class Watchdog {
  private readonly tests = new Map<string, RunningTest>();
  private readonly files = new Map<
    string,
    { file: string; project?: string; idleSince: number; last?: string; lastEnded?: string }
  >();

  constructor(private readonly limits: WatchdogLimits) {}

  observe(e: VitestEvent): void {
    switch (e.event) {
      case 'file-start':
        this.touch(e.file, e.project, e.at);
        return;
      case 'test-begin': {
        const f = this.touch(e.file, e.project, e.at);
        if (f.last) this.tests.delete(f.last);
        const key = testKey(e);
        f.last = key;
        this.tests.set(key, {
          file: e.file,
          ...(e.project !== undefined ? { project: e.project } : {}),
          names: e.names,
          ...(e.id !== undefined ? { id: e.id } : {}),
          startedAt: e.at,
          ...(e.timeout !== undefined ? { timeout: e.timeout } : {}),
        });
        return;
      }
      case 'test-end': {
        const key = testKey(e);
        if (!this.tests.delete(key)) return;
        const f = this.touch(e.file, e.project, e.at);
        f.lastEnded = e.names.join(' > ');
        if (f.last === key) delete f.last;
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

  private touch(file: string, project: string | undefined, at: number) {
    const key = fileKey(file, project);
    const f = this.files.get(key) ?? { file, ...(project !== undefined ? { project } : {}), idleSince: at };
    f.idleSince = at;
    this.files.set(key, f);
    return f;
  }

  /** Tests still running, oldest first: what a wall-clock kill interrupted. */
  running(): RunningTest[] {
    return [...this.tests.values()].sort((a, b) => a.startedAt - b.startedAt);
  }

  overdue(now: number): Overdue[] {
    const out: Overdue[] = [];
    for (const test of this.tests.values()) {
      const limit = this.limits.test(test);
      const elapsedMs = now - test.startedAt;
      if (elapsedMs > limit.ms) out.push({ kind: 'test', test, elapsedMs, limit });
    }
    for (const f of this.files.values()) {
      if (f.last) continue;
      const limitMs = this.limits.fileGap();
      const elapsedMs = now - f.idleSince;
      if (elapsedMs > limitMs)
        out.push({
          kind: 'file',
          file: f.file,
          ...(f.project !== undefined ? { project: f.project } : {}),
          elapsedMs,
          limitMs,
          ...(f.lastEnded !== undefined ? { lastEnded: f.lastEnded } : {}),
        });
    }
    return out;
  }
}
