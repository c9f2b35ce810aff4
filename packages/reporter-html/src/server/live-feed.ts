import { API_VERSION, portableReport, rootSpellings, type Reporter } from '@suture/core';
import { artifactsIn } from '../artifacts.js';
import type { LiveMessage } from '../shared/live.js';

export interface LiveFeedOptions {
  publish(message: LiveMessage): void;
  /** Tests per project of the latest earlier run, for the progress bars. */
  expected(projects: readonly string[], runId: string): Promise<Record<string, number>>;
}

/**
 * The reporter `suture run --ui` adds after the configured ones: it turns the gate's events
 * (already redacted by the engine) into the page's messages. Last in line, so by `onRunEnd` the
 * other reporters have written the files the page links.
 */
export function liveFeed(options: LiveFeedOptions): Reporter {
  const { publish } = options;
  return {
    name: '@suture/reporter-html (live)',
    apiVersion: API_VERSION,
    async onRunStart(e) {
      publish({
        type: 'run-start',
        runId: e.runId,
        mode: e.mode,
        projects: e.projects,
        expected: await options.expected(e.projects, e.runId),
        at: new Date().toISOString(),
      });
    },
    onProjectStart(e) {
      publish({ type: 'project-start', project: e.project, runner: e.runner });
    },
    onTestResult(e) {
      publish({ type: 'test', project: e.project, id: e.test.id, status: e.test.status });
    },
    onRoundEnd(e) {
      const r = e.round;
      publish({
        type: 'round-end',
        project: e.project,
        kind: r.kind,
        status: r.status,
        tests: r.tests.length,
        durationMs: r.durationMs,
      });
    },
    onAttemptStart(e) {
      publish({
        type: 'attempt-start',
        project: e.project,
        failureId: e.failure.id,
        title: e.failure.title,
        kind: e.failure.kind,
        tests: e.failure.tests.length,
        attempt: e.attempt,
        fixer: e.fixer,
      });
    },
    onAttemptEnd(e) {
      publish({ type: 'attempt-end', project: e.project, failureId: e.failure.id, attempt: e.attempt });
    },
    onProjectEnd(e) {
      publish({ type: 'project-end', project: e.project });
    },
    async onRunEnd(report, { runDir, root }) {
      // the report as report.json holds it: no path of the machine the run was on
      const portable = portableReport(report, rootSpellings(root));
      publish({ type: 'run-end', report: portable, artifacts: await artifactsIn(runDir) });
    },
  };
}
