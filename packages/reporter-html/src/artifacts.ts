import { readdir } from 'node:fs/promises';

/** Files of a run folder that a page links to, in this order, when they exist. */
export const ARTIFACTS = [
  'report.json',
  'results.xml',
  'summary.md',
  'fixes.patch',
  'bug_report.json',
] as const;

/** The run folder's linkable files that exist now. */
export async function artifactsIn(runDir: string): Promise<string[]> {
  const present = new Set(await readdir(runDir).catch(() => [] as string[]));
  return ARTIFACTS.filter((name) => present.has(name));
}
