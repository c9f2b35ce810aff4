import { count } from '../format.js';
import type { LiveProject } from '../live-state.js';
import { Badge } from './badge.js';

/** A project while it runs: a progress bar of the run under way and its counters. */
export function LiveProjectCard({ project }: { project: LiveProject }) {
  const c = project.current;
  const max = c.expected === undefined ? undefined : Math.max(c.expected, c.done);
  const state = project.report?.status ?? project.state;
  const of = max === undefined ? '' : ` of ${count(max)}`;
  return (
    <article class="project live-project" data-project={project.name} aria-label={`Project ${project.name}`}>
      <h3>
        {project.name} <Badge value={state} />
      </h3>
      <p class="project-meta">
        {project.runner || 'not started'} · {c.label}
      </p>
      {project.state === 'ended' ? null : (
        <progress
          max={max ?? undefined}
          value={max === undefined ? undefined : c.done}
          aria-label={`${project.name}: ${count(c.done)}${of} tests done`}
        />
      )}
      <p class="live-counters">
        <span data-live="done">{count(c.done)}</span>
        {of} done · <span data-live="passed">{count(c.passed)}</span> passed ·{' '}
        <span data-live="failed">{count(c.failed)}</span> failed · <span>{count(c.skipped)}</span> skipped
      </p>
      {project.rounds > 0 ? (
        <p class="live-total">
          in all: <span data-live="total">{count(project.total.done)}</span> tests run in{' '}
          <span data-live="runs">{count(project.rounds + (c.closed ? 0 : 1))}</span> runs ·{' '}
          <span data-live="total-failed">{count(project.total.failed)}</span> failed
        </p>
      ) : null}
      <p class="activity">{project.activity}</p>
    </article>
  );
}
