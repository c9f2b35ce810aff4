import { isAbsolute, relative } from 'node:path';
import type { Diagnostic, TestResult } from '@suture/core';
import type { PytestEvent, TimeoutInfo } from './event-schema.js';

export { parseEventLine, parseEvents, type ExceptionInfo, type PytestEvent } from './event-schema.js';

/** How a test that reached its limit is described (the limits and the options behind them). */
export type DescribeTimeout = (nodeid: string, info: TimeoutInfo) => string;

const plainTimeout: DescribeTimeout = (_id, info) =>
  `ran past its limit of ${info.limitS} s${info.where ? ` at ${info.where.file}:${info.where.line}` : ''}`;

function lastErrorLine(longrepr: string): string {
  const e = longrepr
    .split('\n')
    .filter((l) => /^E\s/.test(l))
    .map((l) => l.replace(/^E\s+/, ''));
  return (
    e.find((l) => /^\w+(\.\w+)*(Error|Exception|Warning|Exit|Interrupt)\b/.test(l)) ??
    e[e.length - 1] ??
    longrepr.trim().split('\n').pop() ??
    ''
  );
}

/**
 * Where a collection error points: the innermost `File "x", line N` or `x.py:N:` mention inside
 * the project (a traceback starts in importlib, outside it, and ends where the error is).
 */
function collectLocation(longrepr: string, nodeid: string, root?: string): { file: string; line?: number } {
  const inside = [...longrepr.matchAll(/File "([^"]+)", line (\d+)|^([^\s:]+\.py):(\d+)/gm)]
    .map((m) => ({ file: (m[1] ?? m[3])!, line: Number(m[2] ?? m[4]) }))
    .map((w) => (root && isAbsolute(w.file) ? { ...w, file: relative(root, w.file) } : w))
    .filter((w) => !isAbsolute(w.file) && !w.file.startsWith('..'));
  return inside.at(-1) ?? { file: nodeid.split('::')[0]! };
}

function collectionDiagnostic(nodeid: string, longrepr: string, root?: string): Diagnostic {
  const where = collectLocation(longrepr, nodeid, root);
  const message = lastErrorLine(longrepr);
  return {
    source: 'pytest-collection',
    severity: 'error',
    message,
    file: where.file,
    ...(where.line ? { line: where.line } : {}),
    code: /^(\w+Error)/.exec(message)?.[1],
    notes: [],
    fixIts: [],
    tests: [],
    raw: longrepr,
    symbol: nodeid,
  };
}

/**
 * Folds the plugin's per-phase events into one TestResult per nodeid, as they arrive, and
 * collection errors into diagnostics. `push` returns a test the moment it is finished, so the
 * runner can stream it. One fold spans every pytest process of a run (a restart after a stopped
 * test goes on with the same fold).
 */
export class EventFold {
  readonly tests = new Map<string, TestResult>();
  readonly diagnostics: Diagnostic[] = [];
  readonly shadowed: Array<{ module: string; loaded: string; source: string }> = [];
  /** Setup time per test, in ms: what a re-run of it alone pays for its fixtures. */
  readonly setupMs = new Map<string, number>();
  /** Every test the first process collected. */
  collected?: string[];
  /** The test that started and has not finished in the current process. */
  running?: string;
  /** The test the watchdog stopped in the current process. */
  stopped?: string;
  exitStatus?: number;
  /** How many pytest-xdist workers ran the tests (`-n`), where the per-test limit does not reach. */
  xdistWorkers?: string;
  /** Called the moment the plugin says pytest-xdist runs the tests. */
  onXdist?: (workers: string) => void;

  constructor(
    private readonly root?: string,
    private readonly describeTimeout: DescribeTimeout = plainTimeout,
  ) {}

  /** A new pytest process of the same run. */
  restart(): void {
    this.running = undefined;
    this.stopped = undefined;
    this.exitStatus = undefined;
  }

  push(e: PytestEvent): TestResult | undefined {
    switch (e.event) {
      case 'collected':
        this.collected ??= e.nodeids;
        return undefined;
      case 'start':
        this.running = e.nodeid;
        this.tests.set(e.nodeid, this.fresh(e.nodeid, e.file, e.line));
        return undefined;
      case 'report':
        this.report(e);
        return undefined;
      case 'end': {
        const t = this.tests.get(e.nodeid);
        if (this.running === e.nodeid) this.running = undefined;
        if (!t) return undefined;
        if (e.duration !== undefined) t.durationMs = e.duration * 1000;
        if (e.setup !== undefined) this.setupMs.set(e.nodeid, e.setup * 1000);
        return t;
      }
      case 'stopped': {
        const t = this.tests.get(e.nodeid) ?? this.fresh(e.nodeid, e.timeout.where?.file ?? '', null);
        this.tests.set(e.nodeid, this.timedOut(t, e.timeout, undefined));
        t.durationMs = e.timeout.limitS * 1000;
        this.stopped = e.nodeid;
        if (this.running === e.nodeid) this.running = undefined;
        return t;
      }
      case 'collect-error':
        this.diagnostics.push(collectionDiagnostic(e.nodeid, e.longrepr, this.root));
        return undefined;
      case 'shadowed':
        this.shadowed.push({ module: e.module, loaded: e.loaded, source: e.source });
        return undefined;
      case 'xdist':
        if (this.xdistWorkers === undefined) this.onXdist?.(e.workers);
        this.xdistWorkers = e.workers;
        return undefined;
      case 'finish':
        this.exitStatus = e.exitstatus;
        return undefined;
    }
  }

  private fresh(id: string, file: string, line: number | null): TestResult {
    const shown = this.root && isAbsolute(file) ? relative(this.root, file) : file;
    return { id, file: shown, ...(line ? { line } : {}), status: 'passed', durationMs: 0 };
  }

  private report(e: Extract<PytestEvent, { event: 'report' }>): void {
    const t = this.tests.get(e.nodeid) ?? this.fresh(e.nodeid, e.file, e.line);
    this.tests.set(e.nodeid, t);
    t.durationMs = (t.durationMs ?? 0) + e.duration * 1000;
    if (e.timeout) {
      this.timedOut(t, e.timeout, e.longrepr);
      t.details = { ...t.details, when: e.when };
    } else if (e.outcome === 'failed') {
      // call failures win over teardown errors; a setup error is an error
      if (t.status === 'passed' || t.status === 'skipped') t.status = e.when === 'call' ? 'failed' : 'error';
      if (!t.trace) {
        t.trace = e.longrepr ?? '';
        t.message = e.exception
          ? `${e.exception.type}: ${e.exception.message}`.split('\n').slice(0, 3).join('\n')
          : lastErrorLine(e.longrepr ?? '');
        if (e.exception) t.details = { exception: e.exception, when: e.when };
      }
    } else if (e.outcome === 'skipped' && t.status === 'passed') {
      t.status = 'skipped';
      t.message = e.wasxfail ? 'xfail' : (e.longrepr ?? '').split('\n').pop();
    }
  }

  /** A test that reached its limit: where it was stuck is its location for the analyzer. */
  private timedOut(t: TestResult, info: TimeoutInfo, longrepr: string | undefined): TestResult {
    t.status = 'timeout';
    t.message = this.describeTimeout(t.id, info);
    t.trace = [info.stack, longrepr].filter(Boolean).join('\n\n');
    t.details = {
      exception: { type: 'Timeout', message: t.message, frames: info.frames },
      timeout: {
        limitMs: info.limitS * 1000,
        source: info.source,
        stoppedProcess: info.hard,
        ...(info.sibling ? { after: info.sibling.nodeid } : {}),
        ...(info.sibling?.repeated ? { repeated: info.sibling.repeated } : {}),
      },
    };
    return t;
  }
}

export interface ParsedEvents {
  tests: TestResult[];
  diagnostics: Diagnostic[];
  /** A test that started and never finished (the run was killed while it ran). */
  running?: string;
  exitStatus?: number;
}

/** Folds a whole event file at once. */
export function foldEvents(events: readonly PytestEvent[]): ParsedEvents {
  const fold = new EventFold();
  for (const e of events) fold.push(e);
  return {
    tests: [...fold.tests.values()],
    diagnostics: fold.diagnostics,
    ...(fold.running ? { running: fold.running } : {}),
    ...(fold.exitStatus !== undefined ? { exitStatus: fold.exitStatus } : {}),
  };
}
