import type { Attempt, FailureKind, GateMode, GateReport, ProjectReport, TestStatus } from '@suture/core';
import type { LiveMessage } from '../shared/live.js';

export interface Counts {
  done: number;
  passed: number;
  failed: number;
  skipped: number;
}

export interface LiveProject {
  name: string;
  runner: string;
  state: 'waiting' | 'running' | 'ended';
  /**
   * The run under way: the whole suite first, then the re-runs of attempts and the regression run.
   * `closed` once it ended: its counts stay on screen until the next run's first test.
   */
  current: Counts & { label: string; expected?: number; closed?: boolean };
  /** The first full run's counts, once it ended. */
  initial?: Counts;
  /** Every test result of every run so far: the count that goes on across rounds. */
  total: Counts;
  rounds: number;
  /** What the project is doing now, in words. */
  activity: string;
  report?: ProjectReport;
}

export interface LiveAttempt {
  key: string;
  project: string;
  failureId: string;
  title: string;
  kind: FailureKind;
  attempt: number;
  fixer: string;
  /** Set when the attempt ended. */
  record?: Attempt;
}

export interface LogLine {
  seq: number;
  level: string;
  message: string;
  at: string;
}

export interface LiveState {
  /** `ended`: the server went away before the run's end was heard (suture stopped or was killed). */
  status: 'connecting' | 'running' | 'cancelling' | 'finished' | 'ended';
  runId?: string;
  mode?: GateMode;
  startedAt?: string;
  projects: LiveProject[];
  attempts: LiveAttempt[];
  log: LogLine[];
  report?: GateReport;
  seq: number;
}

export const MAX_LOG_LINES = 300;

export function initialLiveState(): LiveState {
  return { status: 'connecting', projects: [], attempts: [], log: [], seq: 0 };
}

const zero = (): Counts => ({ done: 0, passed: 0, failed: 0, skipped: 0 });

function count<C extends Counts>(counts: C, status: TestStatus): C {
  const next = { ...counts, done: counts.done + 1 };
  if (status === 'passed') next.passed++;
  else if (status === 'skipped') next.skipped++;
  else next.failed++;
  return next;
}

function withLog(state: LiveState, level: string, message: string, at = new Date().toISOString()): LiveState {
  const seq = state.seq + 1;
  const log = [...state.log, { seq, level, message, at }];
  return { ...state, seq, log: log.length > MAX_LOG_LINES ? log.slice(-MAX_LOG_LINES) : log };
}

function mapProject(state: LiveState, name: string, fn: (p: LiveProject) => LiveProject): LiveState {
  return { ...state, projects: state.projects.map((p) => (p.name === name ? fn(p) : p)) };
}

/** Folds one server message into the page state (a new object; the old one is left as it was). */
export function applyMessage(state: LiveState, message: LiveMessage): LiveState {
  switch (message.type) {
    case 'run-start': {
      const projects = message.projects.map((name): LiveProject => ({
        name,
        runner: '',
        state: 'waiting',
        current: { ...zero(), label: 'waiting', ...expected(message.expected[name]) },
        total: zero(),
        rounds: 0,
        activity: 'waiting',
      }));
      const started = { ...state, status: 'running' as const, runId: message.runId, mode: message.mode };
      return withLog({ ...started, startedAt: message.at, projects }, 'info', `run ${message.runId} started`);
    }
    case 'project-start':
      return withLog(
        mapProject(state, message.project, (p) => ({
          ...p,
          runner: message.runner,
          state: 'running',
          current: { ...zero(), label: 'whole suite', ...expected(p.current.expected) },
          activity: `running the suite with ${message.runner}`,
        })),
        'info',
        `${message.project}: running ${message.runner}`,
      );
    case 'test':
      return mapProject(state, message.project, (p) => {
        const current = p.current.closed ? { ...zero(), label: 'running tests' } : p.current;
        return { ...p, current: count(current, message.status), total: count(p.total, message.status) };
      });
    case 'round-end': {
      const next = mapProject(state, message.project, (p) => ({
        ...p,
        rounds: p.rounds + 1,
        current: { ...p.current, closed: true, label: `${message.kind} run ended` },
        ...(p.initial ? {} : { initial: { ...p.current } }),
        activity: `${message.kind} run ended: ${message.status}`,
      }));
      return withLog(
        next,
        message.status === 'passed' ? 'info' : 'warn',
        `${message.project}: ${message.kind} run: ${message.tests} test(s), ${message.status} (${(message.durationMs / 1000).toFixed(1)} s)`,
      );
    }
    case 'attempt-start': {
      const key = `${message.failureId}#${message.attempt}`;
      const attempt: LiveAttempt = { key, ...message };
      const next = mapProject(state, message.project, (p) => ({
        ...p,
        // a failure that stops the whole suite names no test: its re-run has no known size
        current: { ...zero(), label: `attempt ${message.attempt}`, ...expected(message.tests || undefined) },
        activity: `attempt ${message.attempt} on "${message.title}" with ${message.fixer}`,
      }));
      return withLog(
        { ...next, attempts: [...next.attempts, attempt] },
        'info',
        `${message.project}: attempt ${message.attempt} on "${message.title}" with ${message.fixer}`,
      );
    }
    case 'attempt-end': {
      const key = `${message.failureId}#${message.attempt.attempt}`;
      const attempts = state.attempts.map((a) => (a.key === key ? { ...a, record: message.attempt } : a));
      const a = message.attempt;
      return withLog(
        { ...state, attempts },
        a.verdict === 'healed' ? 'info' : 'warn',
        `${message.project}: attempt ${a.attempt} ${a.verdict}${a.reason ? `: ${a.reason.split('\n')[0]}` : ''}`,
      );
    }
    case 'project-end': {
      const report = message.project;
      return withLog(
        mapProject(state, report.name, (p) => ({ ...p, state: 'ended', report, activity: report.status })),
        report.status === 'completed' || report.status === 'healed' ? 'info' : 'warn',
        `${report.name}: ${report.status}`,
      );
    }
    case 'run-end':
      return withLog({ ...state, status: 'finished', report: message.report }, 'info', 'run finished');
    case 'cancelling':
      return withLog({ ...state, status: 'cancelling' }, 'warn', 'cancelling: stopping the tests');
    case 'log':
      return withLog(state, message.level, message.message, message.at);
  }
}

/**
 * The server is gone and no run end was heard: the page stops listening (an EventSource would
 * retry for ever) and says the run ended. A finished page stays as it is.
 */
export function serverGone(state: LiveState): LiveState {
  if (state.status === 'finished' || state.status === 'ended') return state;
  return withLog(
    { ...state, status: 'ended' },
    'error',
    'the connection to suture closed before the run reported its end: suture stopped; its report, if it wrote one, is in the runs list of `suture ui`',
  );
}

function expected(n: number | undefined): { expected?: number } {
  return n === undefined ? {} : { expected: n };
}
