import { z } from 'zod';
import type { BugReport } from '../api/contracts/fix.js';
import type { GateReport } from '../api/contracts/report.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { portableReport, rootSpellings } from './portable.js';
import { outputPath, writeOutput } from './write-file.js';

const BugsOptionsSchema = z.object({ file: z.string().default('bug_report.json') }).strict();

export interface BugEntry extends BugReport {
  project: string;
  failure: string;
  kind: string;
  tests: string[];
  fixer?: string;
}

/** Collects the product-bug verdicts: the tests are right and the code under test is wrong. */
export function collectBugs(report: GateReport): BugEntry[] {
  const bugs: BugEntry[] = [];
  for (const project of report.projects) {
    for (const f of project.failures) {
      if (f.outcome !== 'product-bug' || !f.bug) continue;
      const attempt = [...f.attempts].reverse().find((a) => a.verdict === 'product-bug');
      bugs.push({
        project: project.name,
        failure: f.failure.title,
        kind: f.failure.kind,
        tests: f.failure.tests,
        ...(attempt ? { fixer: attempt.fixer } : {}),
        ...f.bug,
      });
    }
  }
  return bugs;
}

/** Writes `bug_report.json` (only when at least one product bug was found). */
export function bugsReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = BugsOptionsSchema.parse(options);
  return {
    name: 'suture:bugs',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir, root }) {
      const bugs = collectBugs(portableReport(report, rootSpellings(root)));
      if (bugs.length === 0) return;
      await writeOutput(
        outputPath(runDir, file),
        `${JSON.stringify({ runId: report.runId, bugs }, null, 2)}\n`,
      );
    },
  };
}
