import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { API_VERSION, defineReporter, z, type PluginFactoryContext, type Reporter } from '@suture/core';
import { projectAnnotations, runError } from './annotations.js';

const OptionsSchema = z
  .object({
    /** A file to write the annotations to (relative to the config file); stdout when absent. */
    output: z.string().min(1).optional(),
  })
  .strict();
export type AnnotationsOptions = z.input<typeof OptionsSchema>;

/**
 * Writes a GitHub Actions annotation for every failure of the run, at its file and line: an
 * error for what still fails, a warning for a flaky test, a notice for a heal. In a workflow the
 * lines printed to stdout become annotations on the pull request's diff.
 */
export default function annotations(
  options: AnnotationsOptions = {},
  context: Partial<PluginFactoryContext> = {},
): Reporter {
  const { output } = OptionsSchema.parse(options);
  const file = output ? resolve(context.configDir ?? process.cwd(), output) : undefined;
  let repoRoot = process.cwd();
  const lines: string[] = [];
  return defineReporter({
    name: 'suture-reporter-annotations',
    apiVersion: API_VERSION,
    onRunStart(event) {
      repoRoot = event.root;
    },
    // a project's outcome is final when it ends; the run's end only adds a run-level error
    onProjectEnd(event) {
      lines.push(...projectAnnotations(repoRoot, event.project));
    },
    async onRunEnd(report) {
      if (report.error) lines.push(runError(report.error));
      const text = lines.length > 0 ? `${lines.join('\n')}\n` : '';
      // awaited: the gate may exit as soon as onRunEnd returns
      if (file) await writeFile(file, text);
      else process.stdout.write(text);
    },
  });
}
