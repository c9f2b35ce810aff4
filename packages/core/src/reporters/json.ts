import { z } from 'zod';
import { API_VERSION, type Reporter } from '../api/plugin.js';
import { outputPath, writeOutput } from './write-file.js';

const JsonOptionsSchema = z.object({ file: z.string().default('report.json') }).strict();

/** Writes the whole GateReport (every round, attempt, diff, validation and usage) as JSON. */
export function jsonReporter(options: Record<string, unknown> = {}): Reporter {
  const { file } = JsonOptionsSchema.parse(options);
  return {
    name: 'suture:json',
    apiVersion: API_VERSION,
    async onRunEnd(report, { runDir }) {
      await writeOutput(outputPath(runDir, file), `${JSON.stringify(report, null, 2)}\n`);
    },
  };
}
