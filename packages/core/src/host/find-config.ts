import { access } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

export const CONFIG_NAMES = [
  'suture.config.ts',
  'suture.config.mts',
  'suture.config.mjs',
  'suture.config.js',
  'suture.config.json',
  'suture.config.yaml',
  'suture.config.yml',
] as const;

/** Every config file in `dir`, in the order they are read (the first one is used). */
export async function configFilesIn(dir: string): Promise<string[]> {
  const found = await Promise.all(
    CONFIG_NAMES.map((name) =>
      access(join(dir, name)).then(
        () => join(dir, name),
        () => undefined,
      ),
    ),
  );
  return found.filter((f): f is string => f !== undefined);
}

/** The nearest config file walking up from `cwd`, or undefined. */
export async function findConfigFile(cwd: string): Promise<string | undefined> {
  let dir = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_NAMES) {
      const candidate = join(dir, name);
      try {
        await access(candidate);
        return candidate;
      } catch {
        // keep looking
      }
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
