import type { Reporter } from '../plugin/types.js';

export const BUILTIN_REPORTERS = ['console', 'json', 'junit', 'markdown', 'patch', 'bugs'] as const;
export type BuiltinReporterName = (typeof BUILTIN_REPORTERS)[number];

export interface BuiltinReporterContext {
  /** Where human output goes (stderr when `--json` owns stdout). */
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

/** Creates a built-in reporter by name; undefined when the name is not a built-in. */
export function createBuiltinReporter(
  name: string,
  options: Record<string, unknown>,
  context: BuiltinReporterContext,
): Reporter | undefined {
  void options;
  void context;
  if (!(BUILTIN_REPORTERS as readonly string[]).includes(name)) return undefined;
  return { name: `suture:${name}`, apiVersion: 1 };
}
