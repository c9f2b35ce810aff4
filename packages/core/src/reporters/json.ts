import { z } from 'zod';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { portableReport, rootSpellings } from './portable.js';
import { outputPath, writeOutput } from './write-file.js';

const JsonOptionsSchema = z.object({ file: z.string().default('report.json') }).strict();

/**
 * Writes the whole GateReport (every round, attempt, diff, validation and usage) as JSON, its
 * paths repository-relative (`root` is `.`).
 */
export function jsonReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = JsonOptionsSchema.parse(options);
  return {
    name: 'suture:json',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir, root }) {
      const portable = portableReport(report, rootSpellings(root));
      await writeOutput(outputPath(runDir, file), `${JSON.stringify(portable, null, 2)}\n`);
    },
  };
}
