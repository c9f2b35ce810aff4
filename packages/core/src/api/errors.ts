import { UsageSchema, type Usage } from './contracts/fix.js';

/** Where a plugin came from in the config, e.g. `suture.config.json#projects[1].runner`. */
export interface PluginOrigin {
  /** Config file path as shown to the user (relative to cwd when shorter). */
  configFile: string;
  /** Key path inside the config, e.g. `projects[1].runner`, `fixers[0]`. */
  keyPath: string;
}

export function formatOrigin(origin: PluginOrigin): string {
  return `${origin.configFile}#${origin.keyPath}`;
}

/** A config file that cannot be read, parsed or validated. The CLI exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(
    message: string,
    readonly file?: string,
    readonly keyPath?: string,
  ) {
    super(message);
  }
}

/**
 * A plugin that could not be loaded, or that threw. The message names the plugin and the config
 * entry: `@suture/runner-ctest (suture.config.json#projects[1].runner): cmake not found on PATH; ...`.
 */
export class PluginError extends Error {
  override name = 'PluginError';
  constructor(
    readonly plugin: string,
    readonly origin: PluginOrigin | undefined,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${plugin}${origin ? ` (${formatOrigin(origin)})` : ''}: ${ownName(plugin, detail)}`, options);
  }
}

/** A plugin's message without the plugin's own name in front, which the error already gives. */
function ownName(plugin: string, detail: string): string {
  return detail.startsWith(`${plugin} `) || detail.startsWith(`${plugin}: `)
    ? detail.slice(plugin.length).replace(/^:?\s+/, '')
    : detail;
}

/**
 * Thrown by a fixer whose call failed after it had already spent something (an LLM answer that
 * fails the schema, a CLI that ran out of turns): the attempt ends as `fixer-error` with this
 * message, and the usage still counts in the report's totals.
 */
export class FixerError extends Error {
  override name = 'FixerError';
  constructor(
    message: string,
    readonly usage?: Usage,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The usage carried by a FixerError anywhere in an error's cause chain. Matched by name, not
 * `instanceof`, and parsed, not trusted: a plugin may bring its own copy of @suture/core, of
 * another version.
 */
export function usageOfError(error: unknown): Usage | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e.name !== 'FixerError') continue;
    const usage = UsageSchema.safeParse((e as { usage?: unknown }).usage);
    if (usage.success) return usage.data;
  }
  return undefined;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
