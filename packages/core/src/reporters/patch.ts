import { z } from 'zod';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { outputPath, writeOutput } from './write-file.js';

const PatchOptionsSchema = z.object({ file: z.string().default('fixes.patch') }).strict();

/** Writes the validated heals as one unified diff that `git apply` accepts. */
export function patchReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = PatchOptionsSchema.parse(options);
  return {
    name: 'suture:patch',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir }) {
      await writeOutput(outputPath(runDir, file), report.patch);
    },
  };
}
