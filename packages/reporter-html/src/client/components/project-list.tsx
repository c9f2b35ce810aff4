import type { ProjectReport } from '@suture/core';
import { count, duration, firstLine } from '../format.js';
import { Badge } from './badge.js';

export function ProjectCard({ project }: { project: ProjectReport }) {
  const t = project.totals;
  return (
    <article class="project" data-project={project.name} aria-label={`Project ${project.name}`}>
      <h3>
        {project.name} <Badge value={project.status} />
      </h3>
      <p class="project-meta">
        {project.runner} · {project.rounds.length} run(s) · {duration(project.durationMs)}
      </p>
      <p class="project-totals">
        {count(t.tests)} tests: {count(t.passed)} passed, {count(t.failed)} failed, {count(t.skipped)} skipped
        · {count(t.healed)} healed, {count(t.stillFailing)} still failing
      </p>
      {project.error ? <p class="project-error">{firstLine(project.error)}</p> : null}
    </article>
  );
}

export function ProjectList({ projects }: { projects: readonly ProjectReport[] }) {
  return (
    <section id="projects" aria-labelledby="projects-heading">
      <h2 id="projects-heading">Projects ({projects.length})</h2>
      <div class="projects">
        {projects.map((p) => (
          <ProjectCard key={p.name} project={p} />
        ))}
      </div>
    </section>
  );
}
