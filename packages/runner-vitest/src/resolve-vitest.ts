import { access, readFile, realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The script that starts the project's Vitest with process.argv as a plain `vitest run` has it. */
export const ENTRY = fileURLToPath(new URL('../reporter/vitest-entry.mjs', import.meta.url));

/** A Vitest package as the runner uses it. */
export interface ResolvedVitest {
  /** The package folder, symlinks resolved (the path Vite loads its modules from). */
  dir: string;
  version: string;
  /** Its `bin` script (`vitest.mjs`): what process.argv[1] is in a plain run. */
  bin: string;
  /** Its Node API (`vitest/node`). */
  node: string;
  /** Its main entry (`vitest`): what the tests import. */
  index: string;
  /** Its `engines.node` range, when it declares one. */
  engines?: string;
}

type Exports = string | { [condition: string]: Exports } | undefined;

/** The file an `exports` entry names for an `import` (or `default`) under Node. */
function exportFile(entry: Exports): string | undefined {
  if (typeof entry === 'string') return entry;
  if (!entry) return undefined;
  for (const key of ['import', 'node', 'default']) {
    const found = exportFile(entry[key]);
    if (found) return found;
  }
  return undefined;
}

const exists = (p: string): Promise<boolean> =>
  access(p).then(
    () => true,
    () => false,
  );

/** The Vitest package in `dir`, or undefined when `dir` holds none. */
export async function vitestAt(dir: string): Promise<ResolvedVitest | undefined> {
  const text = await readFile(join(dir, 'package.json'), 'utf8').catch(() => undefined);
  if (!text) return undefined;
  const pkg = JSON.parse(text) as {
    name?: string;
    version?: string;
    bin?: string | Record<string, string>;
    exports?: Record<string, Exports>;
    engines?: { node?: string };
  };
  if (pkg.name !== 'vitest' || !pkg.version) return undefined;
  const real = await realpath(dir);
  const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.vitest ?? 'vitest.mjs');
  const node = exportFile(pkg.exports?.['./node']) ?? './dist/node.js';
  const index = exportFile(pkg.exports?.['.']) ?? './dist/index.js';
  return {
    dir: real,
    version: pkg.version,
    bin: join(real, bin),
    node: join(real, node),
    index: join(real, index),
    ...(pkg.engines?.node ? { engines: pkg.engines.node } : {}),
  };
}

/** The project's own Vitest: `node_modules/vitest` found walking up from the root, or the configured folder. */
export async function resolveVitest(root: string, configured?: string): Promise<ResolvedVitest | undefined> {
  if (configured) return vitestAt(isAbsolute(configured) ? configured : resolve(root, configured));
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', 'vitest');
    if (await exists(join(candidate, 'package.json'))) return vitestAt(candidate);
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether `version` (x.y.z) satisfies a range of the forms npm's engines use here: `^a.b.c`, `>=a.b.c`, `a.b.c`, joined by `||`. */
export function satisfies(version: string, range: string): boolean {
  const v = version.replace(/^v/, '').split('.').map(Number);
  const cmp = (a: number[], b: number[]): number => {
    for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
    return 0;
  };
  return range.split('||').some((part) =>
    part
      .trim()
      .split(/\s+/)
      .every((c) => {
        const m = /^(\^|>=|>|<=|<|=)?v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(c);
        if (!m) return true;
        const want = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
        const d = cmp(v, want);
        switch (m[1]) {
          case '^':
            return v[0] === want[0] && d >= 0;
          case '>=':
            return d >= 0;
          case '>':
            return d > 0;
          case '<=':
            return d <= 0;
          case '<':
            return d < 0;
          default:
            return d === 0;
        }
      }),
  );
}
