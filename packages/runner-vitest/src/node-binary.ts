import { execFile } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * The `node` a plain `vitest run` runs on: the first on the PATH Vitest gets (its bin script
 * starts with `#!/usr/bin/env node`), or the Node running suture when none is on it.
 */
export function nodeOnPath(env: Record<string, string | undefined>): string {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return process.execPath;
}

const versions = new Map<string, Promise<string | undefined>>();

/** The version (without the `v`) of the Node binary at `node`. */
export function nodeVersion(node: string): Promise<string | undefined> {
  let real = node;
  try {
    real = realpathSync(node);
  } catch {
    return Promise.resolve(undefined);
  }
  if (real === realpathSync(process.execPath)) return Promise.resolve(process.versions.node);
  let known = versions.get(real);
  if (!known) {
    known = promisify(execFile)(real, ['-p', 'process.versions.node'], { timeout: 10_000 }).then(
      (r) => r.stdout.trim(),
      () => undefined,
    );
    versions.set(real, known);
  }
  return known;
}
