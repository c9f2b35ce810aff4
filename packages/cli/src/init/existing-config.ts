import { access, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { CONFIG_NAMES, PLUGIN_ALIASES } from '@suture/core/internal';
import { PluginSpecSchema, type PluginSpec } from '@suture/core';
import { UsageError } from '../exit.js';

/** A project entry of the config `suture init --force` replaces, as the user wrote it. */
export interface ExistingProject {
  /** Absolute project root. */
  root: string;
  /** The runner's package or path. */
  runnerId: string;
  entry: Record<string, unknown>;
}

export interface ExistingConfig {
  file: string;
  /** Top-level settings other than projects (fixers, heal, reporters...), kept as written. */
  settings: Record<string, unknown>;
  projects: ExistingProject[];
  /** The runners it names, so that `suture init` asks them too. */
  runners: Array<{ spec: PluginSpec; keyPath: string; configFile: string }>;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

function runnerName(spec: PluginSpec): string {
  return typeof spec === 'string' ? spec : spec[0];
}

/**
 * The config in `cwd` that `suture init` would replace. Without `force` an existing config is a
 * usage error; a config in another format than JSON is one even with it, since it would still be
 * read before the suture.config.json init writes.
 */
export async function existingConfig(cwd: string, force: boolean): Promise<ExistingConfig | undefined> {
  const found: string[] = [];
  for (const name of CONFIG_NAMES) if (await exists(join(cwd, name))) found.push(name);
  if (found.length === 0) return undefined;
  if (!force) throw new UsageError(`${join(cwd, found[0]!)} already exists; pass --force to overwrite it`);
  const other = found.find((n) => n !== 'suture.config.json');
  if (other)
    throw new UsageError(
      `${join(cwd, other)} exists and is read before the suture.config.json that suture init writes; move it away (or edit it by hand) and run suture init again`,
    );
  const file = join(cwd, 'suture.config.json');
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new UsageError(
      `${file}: invalid JSON (${(error as Error).message}); fix it or delete it before suture init --force`,
    );
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw))
    throw new UsageError(
      `${file}: the config must be an object; fix it or delete it before suture init --force`,
    );
  const { projects, ...settings } = raw as { projects?: unknown };
  const out: ExistingConfig = { file, settings, projects: [], runners: [] };
  for (const [i, p] of (Array.isArray(projects) ? projects : []).entries()) {
    const entry = p as { root?: unknown; runner?: unknown };
    const spec = PluginSpecSchema.safeParse(entry?.runner);
    if (!spec.success || typeof entry.root !== 'string') continue;
    const name = runnerName(spec.data);
    out.runners.push({ spec: spec.data, keyPath: `projects[${i}].runner`, configFile: basename(file) });
    out.projects.push({
      root: resolve(cwd, entry.root),
      runnerId: PLUGIN_ALIASES[name] ?? name,
      entry: entry as Record<string, unknown>,
    });
  }
  return out;
}
