import type { GateReport } from '@suture/core';
import { firstLine } from '../format.js';
import { DiffView } from './diff-view.js';
import { FailureList } from './failure-list.js';
import { ProjectList } from './project-list.js';
import { ArtifactLinks, RunHeader, TotalsList } from './run-header.js';
import { TestsSection } from './tests-table.js';

function Problems({ report }: { report: GateReport }) {
  const errors = [...report.pluginErrors, ...report.projects.flatMap((p) => p.pluginErrors)];
  if (errors.length === 0 && report.conflicts.length === 0) return null;
  return (
    <section id="problems" aria-labelledby="problems-heading">
      <h2 id="problems-heading">Plugin errors and conflicts</h2>
      <ul>
        {errors.map((e, i) => (
          <li key={`e${i}`}>
            <strong>{e.plugin}</strong>
            {e.origin ? ` (${e.origin})` : ''} failed in {e.phase}
            {e.subject ? ` on ${e.subject}` : ''}: {firstLine(e.message)}
            {e.occurrences > 1 ? ` (${e.occurrences} times)` : ''}
          </li>
        ))}
        {report.conflicts.map((c) => (
          <li key={`c${c.file}`}>
            conflict: <code>{c.file}</code>: {c.reason}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The whole report of one finished run: what report.html shows and the live page ends on. */
export function ReportView(props: {
  report: GateReport;
  artifacts: readonly string[];
  base: string;
  /** Inside the live page: no landmarks of its own, headings a level down. */
  nested?: boolean;
}) {
  const { report } = props;
  const body = (
    <>
      <ArtifactLinks names={props.artifacts} base={props.base} />
      <section id="summary" aria-label="Totals">
        <TotalsList totals={report.totals} label="Totals of the run" />
        {report.wouldBlock ? (
          <p class="would-block">
            Not blocking: exit code {report.wouldBlock.exitCode} would have failed the gate with{' '}
            {report.wouldBlock.stillFailing} failure(s) left.
          </p>
        ) : null}
      </section>
      <ProjectList projects={report.projects} />
      <FailureList report={report} />
      <Problems report={report} />
      {report.patch ? (
        <section id="patch" aria-labelledby="patch-heading">
          <h2 id="patch-heading">Patch of the validated heals</h2>
          <p>
            {report.mode === 'fix'
              ? 'Applied to the working tree.'
              : 'Not applied (check mode): apply fixes.patch with git apply, or run with --fix.'}
          </p>
          <DiffView diff={report.patch} label="Diff of fixes.patch" />
        </section>
      ) : null}
      <TestsSection report={report} />
    </>
  );
  return (
    <div class="report" data-run-id={report.runId}>
      <RunHeader report={report} {...(props.nested ? { nested: true } : {})} />
      {props.nested ? body : <main id="main">{body}</main>}
    </div>
  );
}
