import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

let root: string | undefined;

/**
 * A file shipped in @suture/core (its package.json, its prompts), found through the package's own
 * name: the compiled modules are bundled, so their depth under the package is not fixed.
 */
export function packageFile(...parts: string[]): string {
  root ??= dirname(createRequire(import.meta.url).resolve('@suture/core/package.json'));
  return join(root, ...parts);
}
