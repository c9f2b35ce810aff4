import { relative, resolve } from 'node:path';
import type { FailureReport, ProjectReport } from '@suture/core';

/** GitHub's escaping of a workflow command's message and of its properties. */
const data = (s: string): string => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const property = (s: string): string => data(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

const LEVEL: Record<FailureReport['outcome'], 'error' | 'warning' | 'notice'> = {
  healed: 'notice',
  flaky: 'warning',
  skipped: 'warning',
  'product-bug': 'error',
  unfixable: 'error',
  exhausted: 'error',
  reverted: 'error',
  quarantined: 'warning',
};

/** One `::error file=...,line=...,title=...::message` line per failure of a finished project. */
export function projectAnnotations(repoRoot: string, project: ProjectReport): string[] {
  return project.failures.map(({ failure, outcome, reason, applied }) => {
    const where = failure.location?.file
      ? [
          `file=${property(relative(repoRoot, resolve(repoRoot, project.root, failure.location.file)))}`,
          ...(failure.location.line ? [`line=${failure.location.line}`] : []),
        ]
      : [];
    // a check-mode heal was validated, not applied: the tree still fails until the patch is applied
    const offered = outcome === 'healed' && applied === false;
    const title = property(
      `suture: ${offered ? 'fix validated but not applied' : outcome} in ${project.name}`,
    );
    const next = offered ? "apply the fix from the run's fixes.patch, or run suture run --fix" : reason;
    const message = data(`${failure.title}${next ? `\n${next}` : ''}`);
    return `::${LEVEL[outcome]} ${[...where, `title=${title}`].join(',')}::${message}`;
  });
}

/** The line for a run that ended with an internal error or was interrupted. */
export function runError(error: string): string {
  return `::error title=suture::${data(error)}`;
}
