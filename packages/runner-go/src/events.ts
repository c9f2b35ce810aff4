import type { Diagnostic, TestResult } from '@suture/core';
import { buildDiagnostics } from './build-output.js';
import { formatId } from './ids.js';
import { packageDir, type GoModule } from './modules.js';

/** One line of `go test -json` (test2json's events, and the go command's build events). */
export interface GoEvent {
  Action: string;
  Package?: string;
  Test?: string;
  Output?: string;
  Elapsed?: number;
  ImportPath?: string;
  FailedBuild?: string;
}

/** A test that has started and not ended, with what it printed. */
interface Open {
  id: string;
  dir: string;
  pkg: string;
  name: string;
  output: string[];
  /** `Date.now()` when it started or resumed: what the watchdog measures. */
  since: number;
  paused: boolean;
}

const MAX_TRACE = 64 * 1024;

/** The lines of a test's output that are its own messages (not the RUN/PASS/FAIL lines). */
function ownLines(output: readonly string[]): string[] {
  return output
    .join('')
    .split('\n')
    .filter((l) => l.trim() && !/^\s*(?:=== (?:RUN|PAUSE|CONT|NAME)|--- (?:PASS|FAIL|SKIP):)/.test(l));
}

/**
 * Folds the events of one or more `go test -json` processes into test results and diagnostics.
 * Ids are `<package folder>::<test>`, so the same test from a re-run replaces its earlier result.
 */
export class EventFold {
  readonly tests = new Map<string, TestResult>();
  readonly diagnostics: Diagnostic[] = [];
  private readonly seenDiagnostics = new Set<string>();
  readonly open = new Map<string, Open>();
  /** Package output outside any test (a panic in TestMain, `FAIL` lines), by package folder. */
  readonly packageOutput = new Map<string, string[]>();
  /** Packages whose test binary did not build. */
  readonly failedBuilds = new Set<string>();
  /** Top-level tests the watchdog stopped, by id, with the limit they ran past. */
  readonly stopped = new Map<string, number>();
  /** Packages that ended while tests were still open (the binary died or was stopped). */
  readonly cut = new Map<string, { pkg: string; open: string[] }>();
  private readonly buildLines = new Map<string, string[]>();
  /** Lines that were not JSON: the go command's own errors. */
  readonly plain: string[] = [];

  constructor(
    private readonly root: string,
    private readonly modules: readonly GoModule[],
    private readonly stream: (t: TestResult) => void,
  ) {}

  dirOf(pkg: string): string {
    return packageDir(pkg, this.modules) ?? pkg;
  }

  /** Feeds one line of output. */
  line(text: string): void {
    if (!text.startsWith('{')) {
      if (text.trim()) this.plain.push(text);
      return;
    }
    let e: GoEvent;
    try {
      e = JSON.parse(text) as GoEvent;
    } catch {
      this.plain.push(text);
      return;
    }
    if (typeof e.Action !== 'string') return;
    this.event(e);
  }

  private event(e: GoEvent): void {
    if (e.Action === 'build-output' && e.ImportPath) {
      const lines = this.buildLines.get(e.ImportPath) ?? [];
      lines.push(e.Output ?? '');
      this.buildLines.set(e.ImportPath, lines);
      return;
    }
    if (e.Action === 'build-fail' && e.ImportPath) {
      const lines = this.buildLines.get(e.ImportPath) ?? [];
      this.buildLines.delete(e.ImportPath);
      for (const d of buildDiagnostics(this.root, this.root, lines, (p) => packageDir(p, this.modules))) {
        // `go test` prints a failure shared by packages (an import cycle) once for each of them
        const key = `${d.file ?? ''}:${d.line ?? ''}:${d.message}`;
        if (this.seenDiagnostics.has(key)) continue;
        this.seenDiagnostics.add(key);
        this.diagnostics.push(d);
      }
      return;
    }
    if (!e.Package) return;
    const dir = this.dirOf(e.Package);
    if (!e.Test) return this.packageEvent(e, dir);
    const id = formatId(dir, e.Test);
    switch (e.Action) {
      case 'run':
        this.open.set(id, {
          id,
          dir,
          pkg: e.Package,
          name: e.Test,
          output: [],
          since: Date.now(),
          paused: false,
        });
        return;
      case 'pause':
      case 'cont': {
        const o = this.open.get(id);
        if (o) {
          o.paused = e.Action === 'pause';
          o.since = Date.now();
        }
        return;
      }
      case 'output': {
        const o = this.open.get(id);
        if (o) o.output.push(e.Output ?? '');
        return;
      }
      case 'pass':
      case 'fail':
      case 'skip':
        return this.end(id, dir, e);
    }
  }

  private end(id: string, dir: string, e: GoEvent): void {
    const o = this.open.get(id);
    this.open.delete(id);
    const output = o?.output ?? [];
    const own = ownLines(output);
    const status = e.Action === 'pass' ? 'passed' : e.Action === 'skip' ? 'skipped' : 'failed';
    const test: TestResult = {
      id,
      name: e.Test!,
      status,
      ...(e.Elapsed !== undefined ? { durationMs: Math.round(e.Elapsed * 1000) } : {}),
    };
    if (status !== 'passed') {
      const text = output.join('');
      if (own.length)
        test.message = own
          .slice(0, 6)
          .map((l) => l.trim())
          .join('\n');
      if (text) test.trace = text.slice(-MAX_TRACE);
      const at = /^\s+([\w.-]+\.go):(\d+):/m.exec(own.join('\n'));
      const panic = /^panic: (.*)$/m.exec(text);
      test.details = {
        package: e.Package,
        ...(at ? { failureFile: dir === '.' ? at[1] : `${dir}/${at[1]}`, failureLine: Number(at[2]) } : {}),
        ...(panic ? { panic: panic[1] } : {}),
        ...(status === 'failed' && own.length === 0 ? { subtestsFailed: true } : {}),
      };
    }
    this.tests.set(id, test);
    this.stream(test);
  }

  private packageEvent(e: GoEvent, dir: string): void {
    if (e.Action === 'output') {
      const lines = this.packageOutput.get(dir) ?? [];
      lines.push(e.Output ?? '');
      this.packageOutput.set(dir, lines);
      return;
    }
    if (e.Action !== 'pass' && e.Action !== 'fail' && e.Action !== 'skip') return;
    if (e.FailedBuild) this.failedBuilds.add(dir);
    const left = [...this.open.values()].filter((o) => o.pkg === e.Package);
    if (left.length > 0) this.cut.set(dir, { pkg: e.Package!, open: left.map((o) => o.id) });
    for (const o of left) this.closeCut(o);
  }

  /** A test still open when its binary ended: stopped by the watchdog, or the binary died under it. */
  private closeCut(o: Open): void {
    this.open.delete(o.id);
    const top = formatId(o.dir, o.name.split('/')[0]!);
    const text = o.output.join('');
    const limit = this.stopped.get(top);
    const test: TestResult = {
      id: o.id,
      name: o.name,
      status: limit !== undefined ? 'timeout' : 'crashed',
      durationMs: Math.max(0, Date.now() - o.since),
      message:
        limit !== undefined
          ? `ran past its time limit of ${limit} ms and was stopped with SIGQUIT; the trace holds the goroutine dump`
          : `the test binary exited while this test ran${/^panic: /m.test(text) ? ' (a panic)' : ''}`,
      trace: (text || (this.packageOutput.get(o.dir) ?? []).join('')).slice(-MAX_TRACE),
      details: { package: o.pkg, ...(limit !== undefined ? { limitMs: limit } : {}) },
    };
    this.tests.set(o.id, test);
    this.stream(test);
  }

  /** Marks the tests still open (a run killed at its wall-clock limit or aborted). */
  closeAll(why: string): void {
    for (const o of [...this.open.values()]) {
      this.open.delete(o.id);
      const test: TestResult = {
        id: o.id,
        name: o.name,
        status: 'timeout',
        message: why,
        trace: o.output.join('').slice(-MAX_TRACE),
        details: { package: o.pkg },
      };
      this.tests.set(o.id, test);
      this.stream(test);
    }
  }
}
