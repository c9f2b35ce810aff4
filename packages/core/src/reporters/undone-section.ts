import type { GateReport } from '../api/contracts/report.js';

/**
 * What the runs changed in the user's tree that suture did not write, once per file and project:
 * put back (or, for a first run's build in fix mode, left and named).
 */
export function undoneSection(report: GateReport): string[] {
  const rows = new Map<string, string>();
  for (const p of report.projects)
    for (const r of p.rounds)
      for (const u of r.undone ?? []) {
        // the first round that changed a file names it: a later one did the same again
        const key = `${p.name}\0${u.file}`;
        if (rows.has(key)) continue;
        const what = u.restored ? 'put back' : `left (${u.reason ?? 'not put back'})`;
        rows.set(key, `- ${p.name}: \`${u.file}\` ${u.change} by the ${r.kind} run, ${what}`);
      }
  if (rows.size === 0) return [];
  return ['### Changes the runs made to the tree', '', ...rows.values(), ''];
}
