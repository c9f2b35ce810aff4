import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** How the project's own tool finds the module a relative import names. */
export type ModuleStyle = 'commonjs' | 'node' | 'bundler';

const VITE_CONFIG = /^vite(?:st)?\.config\.[cm]?[jt]s$/;

/** Whether a package.json or a folder says Vite transforms the code: vite or vitest installed, or their config. */
function transformedByVite(dir: string): boolean {
  if (readdirSync(dir).some((name) => VITE_CONFIG.test(name))) return true;
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return false;
  try {
    const json = JSON.parse(readFileSync(pkg, 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    return ['dependencies', 'devDependencies'].some(
      (k) => json[k]?.vite !== undefined || json[k]?.vitest !== undefined,
    );
  } catch {
    return false;
  }
}

/**
 * An ES module that Vite (and so Vitest) transforms imports `./format` without an extension, as a
 * bundler resolves it; Node's own ES module rules would not find that file, and the import fix
 * would miss the module that exports the name. From the file's folder up to the project root.
 */
export function moduleStyle(root: string, file: string, esm: boolean): ModuleStyle {
  if (!esm) return 'commonjs';
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (transformedByVite(dir)) return 'bundler';
    if (relative(root, dir) === '' || relative(root, dir).startsWith('..') || dirname(dir) === dir)
      return 'node';
  }
}
