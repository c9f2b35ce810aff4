import { execFile } from 'node:child_process';
import { readdir, readFile, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, sep } from 'node:path';

/** Where a Python project keeps the packages its tests import. */
export interface PythonLayout {
  /** `src`: packages under src/ (they are not importable from the project root); `flat`: at the root. */
  kind: 'src' | 'flat';
  /** Import names of the project's own packages. */
  packages: string[];
}

const PACKAGING = ['pyproject.toml', 'setup.cfg', 'setup.py'];
// Folders at the root of a flat layout that hold tests or tooling, not the package under test.
const NOT_PACKAGES = new Set([
  'tests',
  'test',
  'testing',
  'docs',
  'doc',
  'examples',
  'scripts',
  'benchmarks',
  'tools',
]);
const MAX_PACKAGES = 8;

const exists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  );

async function packagesIn(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const out: string[] = [];
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)))
    if (
      e.isDirectory() &&
      /^[A-Za-z_]\w*$/.test(e.name) &&
      !NOT_PACKAGES.has(e.name) &&
      (await exists(join(dir, e.name, '__init__.py')))
    )
      out.push(e.name);
  return out.slice(0, MAX_PACKAGES);
}

/** The layout of a packaged project (pyproject.toml, setup.cfg or setup.py), or undefined. */
export async function pythonLayout(dir: string): Promise<PythonLayout | undefined> {
  const packaged = (await Promise.all(PACKAGING.map((f) => exists(join(dir, f))))).some(Boolean);
  if (!packaged) return undefined;
  const src = await packagesIn(join(dir, 'src'));
  if (src.length > 0) return { kind: 'src', packages: src };
  const flat = await packagesIn(dir);
  return flat.length > 0 ? { kind: 'flat', packages: flat } : undefined;
}

/** True when the project's pytest settings already put src on sys.path (`pythonpath = src`). */
export async function pytestPathHasSrc(dir: string): Promise<boolean> {
  for (const file of ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini']) {
    const text = await readFile(join(dir, file), 'utf8').catch(() => '');
    if (/^\s*pythonpath\s*=.*(?<![\w/.-])src\b/m.test(text)) return true;
  }
  return false;
}

// find_spec locates a package without running its __init__ (an import could have side effects).
// With --no-cwd the script drops the working folder from sys.path, as a `pytest` console script
// does; without it the path starts with it, as under `python -m pytest`, which is how suture runs.
const FIND = `
import importlib.util, json, sys
args = sys.argv[1:]
if args[:1] == ["--no-cwd"]:
    args = args[1:]
    sys.path = [p for p in sys.path if p not in ("", ".")]
out = {}
for name in args:
    try:
        spec = importlib.util.find_spec(name)
    except Exception:
        spec = None
    locations = list(spec.submodule_search_locations or []) if spec else []
    out[name] = (spec.origin if spec and spec.origin else None) or (locations[0] if locations else None)
print(json.dumps(out))
`;

/**
 * Where each package resolves for `python` run in `dir` with `env` on top of suture's environment:
 * an absolute path, or null when it is not importable. Undefined when Python cannot be run.
 */
export function findPackages(
  python: string,
  dir: string,
  names: readonly string[],
  options: { env?: Record<string, string>; cwdOnPath: boolean },
): Promise<Record<string, string | null> | undefined> {
  const args = ['-c', FIND, ...(options.cwdOnPath ? [] : ['--no-cwd']), ...names];
  return new Promise((resolve) => {
    execFile(
      python,
      args,
      { cwd: dir, env: { ...process.env, ...options.env }, timeout: 20_000, encoding: 'utf8' },
      (error, stdout) => {
        try {
          resolve(error ? undefined : (JSON.parse(stdout) as Record<string, string | null>));
        } catch {
          resolve(undefined);
        }
      },
    );
  });
}

/** True when `file` (a module's origin) lies inside `dir`, symlinks resolved. */
export async function within(dir: string, file: string): Promise<boolean> {
  const [root, real] = await Promise.all([realpath(dir).catch(() => dir), realpath(file).catch(() => file)]);
  const rel = relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}
