import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

/** Short names for the first-party plugins. */
export const PLUGIN_ALIASES: Readonly<Record<string, string>> = {
  pytest: '@suture/runner-pytest',
  ctest: '@suture/runner-ctest',
  jest: '@suture/runner-jest',
  vitest: '@suture/runner-vitest',
  go: '@suture/runner-go',
  cargo: '@suture/runner-cargo',
  hints: '@suture/fixer-hints',
  claude: '@suture/llm-claude-cli',
  openai: '@suture/llm-openai',
  html: '@suture/reporter-html',
};

export function isPathSpec(name: string): boolean {
  return name.startsWith('./') || name.startsWith('../') || isAbsolute(name);
}

type Exports = string | { [condition: string]: Exports } | undefined;

function pickExport(exp: Exports): string | undefined {
  if (typeof exp === 'string') return exp;
  if (!exp || typeof exp !== 'object') return undefined;
  if ('.' in exp) return pickExport(exp['.']);
  for (const condition of ['import', 'node', 'default', 'require']) {
    const hit = pickExport(exp[condition]);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * Finds a package's entry file the way Node does for `import`, starting at `fromDir` and walking
 * up through node_modules folders (workspace symlinks included).
 */
export async function resolvePackageEntry(name: string, fromDir: string): Promise<string | undefined> {
  const [scopeOrName, maybeName, ...sub] = name.split('/');
  const pkgName = scopeOrName!.startsWith('@') ? `${scopeOrName}/${maybeName}` : scopeOrName!;
  const subpath = scopeOrName!.startsWith('@')
    ? sub.join('/')
    : [maybeName, ...sub].filter(Boolean).join('/');
  let dir = resolve(fromDir);
  for (;;) {
    const pkgDir = join(dir, 'node_modules', pkgName);
    const pkgJson = await readFile(join(pkgDir, 'package.json'), 'utf8').catch(() => undefined);
    if (pkgJson) {
      const pkg = JSON.parse(pkgJson) as { exports?: Exports; module?: string; main?: string };
      if (subpath) {
        const exp =
          pkg.exports && typeof pkg.exports === 'object'
            ? pickExport((pkg.exports as Record<string, Exports>)[`./${subpath}`])
            : undefined;
        return join(pkgDir, exp ?? subpath);
      }
      const entry = pickExport(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js';
      const abs = join(pkgDir, entry);
      if (await stat(abs).catch(() => undefined)) return abs;
      return abs;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}
