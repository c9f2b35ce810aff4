import type { PluginErrorEntry } from '../api/contracts/report.js';

/** `@suture/runner-x (suture.config.json#projects[0].runner) failed in run on the initial run: message`. */
export function pluginErrorLine(e: PluginErrorEntry): string {
  const where = e.origin ? ` (${e.origin})` : '';
  const what = e.subject ? ` on ${e.subject}` : '';
  const times = e.occurrences > 1 ? ` (${e.occurrences} times)` : '';
  return `${e.plugin}${where} failed in ${e.phase}${what}: ${e.message}${times}`;
}

/** Every plugin error of a report: the run's own (reporters), then each project's. */
export function allPluginErrors(report: {
  pluginErrors: readonly PluginErrorEntry[];
  projects: ReadonlyArray<{ pluginErrors: readonly PluginErrorEntry[] }>;
}): PluginErrorEntry[] {
  return [...report.pluginErrors, ...report.projects.flatMap((p) => p.pluginErrors)];
}
