import type { PluginErrorEntry } from '../api/contracts/report.js';
import { errorMessage, formatOrigin, type PluginOrigin } from '../api/errors.js';

export interface PluginErrorContext {
  /** The plugin's name, used when the error does not carry one. */
  plugin: string;
  kind: PluginErrorEntry['kind'];
  phase: string;
  project?: string;
  subject?: string;
}

interface PluginErrorLike {
  plugin: string;
  origin?: PluginOrigin;
  detail: string;
}

/**
 * The PluginError in an error's cause chain. Matched by name, not `instanceof`: a plugin may
 * bring its own copy of @suture/core.
 */
function pluginErrorOf(error: unknown): PluginErrorLike | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const candidate = e as Error & Partial<PluginErrorLike>;
    if (
      e.name === 'PluginError' &&
      typeof candidate.plugin === 'string' &&
      typeof candidate.detail === 'string'
    )
      return candidate as PluginErrorLike;
  }
  return undefined;
}

/**
 * A report entry for a plugin that threw (or broke its contract, given as a message). The name and
 * the config entry come from the PluginError the loaded-plugin wrapper made, when there is one, so
 * the message is the plugin's own words without the prefix the wrapper added.
 */
export function pluginErrorEntry(context: PluginErrorContext, error: unknown): PluginErrorEntry {
  const wrapped = pluginErrorOf(error);
  return {
    plugin: wrapped?.plugin ?? context.plugin,
    kind: context.kind,
    ...(wrapped?.origin ? { origin: formatOrigin(wrapped.origin) } : {}),
    phase: context.phase,
    ...(context.project ? { project: context.project } : {}),
    ...(context.subject ? { subject: context.subject } : {}),
    message: wrapped ? wrapped.detail : typeof error === 'string' ? error : errorMessage(error),
    occurrences: 1,
  };
}

/** One entry per plugin, phase, project and message, counting repeats (a hook that fails on every test). */
export function mergePluginErrors(entries: readonly PluginErrorEntry[]): PluginErrorEntry[] {
  const merged = new Map<string, PluginErrorEntry>();
  for (const e of entries) {
    const key = JSON.stringify([e.plugin, e.origin, e.phase, e.project, e.message]);
    const seen = merged.get(key);
    if (seen) merged.set(key, { ...seen, occurrences: seen.occurrences + e.occurrences });
    else merged.set(key, e);
  }
  return [...merged.values()];
}
