import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, type PluginSpec } from '@suture/core';
import { isPathSpec, PLUGIN_ALIASES, resolvePackageEntry } from '@suture/core/host';

/** A package this one depends on, as an absolute entry file: found wherever the output folder is. */
export function ownEntry(name: string): string {
  return fileURLToPath(import.meta.resolve(name));
}

/** The judge, as a plugin file next to this module (its TypeScript source when run from source). */
export function judgeEntry(): string {
  const built = fileURLToPath(new URL('../judge/index.js', import.meta.url));
  return existsSync(built) ? built : fileURLToPath(new URL('../judge/index.ts', import.meta.url));
}

/**
 * A fixer named on the command line (`claude`, `openai`, a package or a path) as an absolute
 * entry: from the working directory first, then from this package.
 */
export async function fixerEntry(name: string, cwd: string): Promise<string> {
  const id = PLUGIN_ALIASES[name] ?? name;
  if (isPathSpec(id)) return id;
  const found = await resolvePackageEntry(id, cwd);
  if (found) return found;
  try {
    return ownEntry(id);
  } catch {
    throw new ConfigError(
      `--fixer ${name}: cannot find package "${id}"; install it with \`npm install -D ${id}\``,
    );
  }
}

/**
 * A config's plugin spec with its package resolved to an entry file, so it loads from any folder:
 * from the config's folder, else the working directory, else this package.
 */
export async function absoluteSpec(
  spec: PluginSpec,
  fromDir: string,
  cwd: string = fromDir,
): Promise<PluginSpec> {
  const [name, options] = typeof spec === 'string' ? [spec, undefined] : spec;
  const id = PLUGIN_ALIASES[name] ?? name;
  if (isPathSpec(id)) return spec;
  let entry = (await resolvePackageEntry(id, fromDir)) ?? (await resolvePackageEntry(id, cwd));
  if (!entry)
    try {
      entry = ownEntry(id);
    } catch {
      return spec;
    }
  return options ? [entry, options] : entry;
}
