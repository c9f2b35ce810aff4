import type { Reporter } from '../api/plugin.js';
import { bugsReporter } from './bugs.js';
import { consoleReporter, type ConsoleStream } from './console.js';
import { jsonReporter } from './json.js';
import { junitReporter } from './junit.js';
import { markdownReporter } from './markdown.js';
import { patchReporter } from './patch.js';

export const BUILTIN_REPORTERS = ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'] as const;
export type BuiltinReporterName = (typeof BUILTIN_REPORTERS)[number];

export interface BuiltinReporterContext {
  /** Where human output goes (stderr when `--json` owns stdout). */
  stream: ConsoleStream;
  env: NodeJS.ProcessEnv;
}

/**
 * Creates a built-in reporter by name (`console`, `json`, ... or `suture:json`); undefined when
 * the name is not a built-in. Options are validated by each reporter (a ZodError on bad options).
 */
export function createBuiltinReporter(
  name: string,
  options: Record<string, unknown>,
  context: BuiltinReporterContext,
): Reporter | undefined {
  switch (name.replace(/^suture:/, '')) {
    case 'console':
      return consoleReporter(options, context.stream, context.env);
    case 'json':
      return jsonReporter(options);
    case 'junit':
      return junitReporter(options);
    case 'markdown':
      return markdownReporter(options, context.env);
    case 'patch':
      return patchReporter(options);
    case 'bugs':
      return bugsReporter(options);
    default:
      return undefined;
  }
}
