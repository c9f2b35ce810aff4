import { readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Tests per project in the newest earlier run next to `runDir` (its whole-suite run): the
 * denominators of the live progress bars. Runners report tests as they finish, not how many
 * there will be, so the last run is the best guess; a project it did not gate has none.
 */
export async function previousTestCounts(runDir: string): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const runsDir = dirname(runDir);
  const runs = (await readdir(runsDir).catch(() => [] as string[]))
    .filter((name) => name !== basename(runDir))
    .sort()
    .reverse();
  for (const run of runs.slice(0, 5)) {
    const text = await readFile(join(runsDir, run, 'report.json'), 'utf8').catch(() => undefined);
    if (!text) continue;
    try {
      const report = JSON.parse(text) as {
        projects?: Array<{ name?: string; rounds?: Array<{ kind?: string; tests?: unknown[] }> }>;
      };
      for (const p of report.projects ?? []) {
        const initial = p.rounds?.find((r) => r.kind === 'initial');
        if (p.name && !counts.has(p.name) && initial?.tests?.length) counts.set(p.name, initial.tests.length);
      }
      return counts;
    } catch {
      continue;
    }
  }
  return counts;
}
