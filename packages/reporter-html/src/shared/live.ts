import type { Attempt, FailureKind, GateMode, GateReport, ProjectReport, TestStatus } from '@suture/core';

/**
 * What the dashboard server streams to the page, one server-sent event each. The server turns the
 * gate's reporter events into these (a test result keeps only what a counter needs) and the page
 * folds them into its state in order; `run-end` carries the whole report, so the final page is
 * the report the json reporter writes.
 */
export type LiveMessage =
  | {
      type: 'run-start';
      runId: string;
      mode: GateMode;
      projects: string[];
      /** Tests per project in the latest earlier run: the denominators of the progress bars. */
      expected: Record<string, number>;
      at: string;
    }
  | { type: 'project-start'; project: string; runner: string }
  | { type: 'test'; project: string; id: string; status: TestStatus }
  | { type: 'round-end'; project: string; kind: string; status: string; tests: number; durationMs: number }
  | {
      type: 'attempt-start';
      project: string;
      failureId: string;
      title: string;
      kind: FailureKind;
      /** Tests the validation run re-runs. */
      tests: number;
      attempt: number;
      fixer: string;
    }
  | { type: 'attempt-end'; project: string; failureId: string; attempt: Attempt }
  | { type: 'project-end'; project: ProjectReport }
  | {
      type: 'run-end';
      report: GateReport;
      /** Files of the run folder once every reporter wrote. */ artifacts: string[];
    }
  | { type: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string; at: string }
  | { type: 'cancelling' };

/** One earlier run in `.suture/runs`, as the runs list and its trend charts show it. */
export interface RunSummary {
  runId: string;
  startedAt: string;
  durationMs: number;
  mode: GateMode;
  exitCode: number;
  /** The run was cancelled (exit 130): not a failure of the gate. */
  cancelled?: boolean;
  tests: number;
  passed: number;
  failed: number;
  healed: number;
  stillFailing: number;
  bugs: number;
  flaky: number;
  llmCalls: number;
  costUsd: number;
  projects: Array<{ name: string; status: string; tests: number }>;
  /** Files of the run folder the server hands out (report.json, results.xml, fixes.patch, ...). */
  artifacts: string[];
}

/**
 * What a page is booted with, embedded in it as JSON. `static`: a report.html (or a served earlier
 * run) showing `report`. `live`: the dashboard of a running gate, fed by `/api/events`. `browse`:
 * `suture ui`, the earlier runs only.
 */
export interface BootData {
  mode: 'static' | 'live' | 'browse';
  report?: GateReport;
  /** Run-folder files to link (report.json, results.xml, fixes.patch, ...), as names. */
  artifacts?: string[];
  /** Prefix of those links: '' next to report.html, `/runs/<id>/` on the server. */
  artifactBase?: string;
  /** Set on served pages: every request repeats it. */
  token?: string;
}
