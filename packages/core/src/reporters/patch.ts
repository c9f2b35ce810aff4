import { z } from 'zod';
import type { GateReport } from '../api/contracts/report.js';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { expectationChanged } from './gated-tests.js';
import { outputPath, writeOutput } from './write-file.js';

const PatchOptionsSchema = z.object({ file: z.string().default('fixes.patch') }).strict();

/**
 * The run's patch with a comment heading it for every heal that changes an expected value:
 * `git apply` ignores text before the first diff, a reviewer reads it first.
 */
export function annotatedPatch(report: GateReport): string {
  const notes: string[] = [];
  for (const p of report.projects)
    for (const f of p.failures)
      if (expectationChanged(f))
        notes.push(
          `# expectation changed (${p.name}): the fix for "${f.failure.title}" edits an expected value in a test; review it`,
        );
  return notes.length > 0 && report.patch ? `${notes.join('\n')}\n\n${report.patch}` : report.patch;
}

/** Writes the validated heals as one unified diff that `git apply` accepts. */
export function patchReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = PatchOptionsSchema.parse(options);
  return {
    name: 'suture:patch',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir }) {
      await writeOutput(outputPath(runDir, file), annotatedPatch(report));
    },
  };
}
