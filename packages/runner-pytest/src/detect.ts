import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { DetectedProject } from '@suture/core';
import { resolvePython } from './interpreter.js';
import { findPackages, pytestPathHasSrc, pythonLayout, type PythonLayout, within } from './python-layout.js';

async function read(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

const TEST_FILE = /^test_.*\.py$|_test\.py$/;

/** Test files in `dir` or, for a tests/ tree split by kind (tests/unit, tests/api), below it. */
async function hasTestFiles(dir: string, depth = 2): Promise<boolean> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  if (entries.some((e) => e.isFile() && TEST_FILE.test(e.name))) return true;
  if (depth === 0) return false;
  for (const e of entries)
    if (e.isDirectory() && !e.name.startsWith('.') && e.name !== '__pycache__')
      if (await hasTestFiles(join(dir, e.name), depth - 1)) return true;
  return false;
}

async function why(dir: string): Promise<string | undefined> {
  if (await read(join(dir, 'pytest.ini'))) return 'pytest.ini';
  if ((await read(join(dir, 'pyproject.toml')))?.includes('[tool.pytest.ini_options]'))
    return 'pyproject.toml [tool.pytest.ini_options]';
  if ((await read(join(dir, 'setup.cfg')))?.includes('[tool:pytest]')) return 'setup.cfg [tool:pytest]';
  if ((await read(join(dir, 'tox.ini')))?.includes('[pytest]')) return 'tox.ini [pytest]';
  if ((await read(join(dir, 'conftest.py'))) !== undefined) return 'conftest.py';
  if ((await hasTestFiles(join(dir, 'tests'))) || (await hasTestFiles(join(dir, 'test'))))
    return 'test_*.py files in tests/';
  if (await hasTestFiles(dir, 0)) return 'test_*.py files';
  return undefined;
}

/**
 * Where the project's packages resolve as suture's runs see them (project folder first on
 * sys.path, the runner env) and, for a src layout, as a plain `pytest` does (no project folder
 * on sys.path; src only when pytest's own pythonpath names it): an installed copy in
 * site-packages that shadows the source makes the tests test that copy.
 */
async function shadowNotes(dir: string, layout: PythonLayout, pytestPath: boolean): Promise<string[]> {
  const python = await resolvePython(dir);
  const src = { PYTHONPATH: 'src' };
  const suture = await findPackages(python, dir, layout.packages, {
    env: layout.kind === 'src' ? src : {},
    cwdOnPath: true,
  });
  const plain =
    layout.kind === 'src'
      ? await findPackages(python, dir, layout.packages, { env: pytestPath ? src : {}, cwdOnPath: false })
      : {};
  if (!suture || !plain) return [];
  const notes: string[] = [];
  const source = (name: string): string => (layout.kind === 'src' ? `src/${name}` : name);
  const shadowed = async (name: string, origin: string | null | undefined): Promise<boolean> =>
    !!origin && !(await within(join(dir, source(name)), origin));
  for (const name of layout.packages) {
    const seen = suture[name];
    const installed = plain[name];
    if (await shadowed(name, seen))
      notes.push(
        `warning: "${name}" resolves to ${seen}, not to ${source(name)}: an installed copy shadows the source, so the tests would test that copy; install the project in editable mode (${python} -m pip install -e .) or remove the copy`,
      );
    else if (await shadowed(name, installed))
      notes.push(
        `warning: an installed copy of "${name}" (${installed}) shadows src/${name} for a plain \`pytest\`; suture's runs import the source (PYTHONPATH=src), and \`${python} -m pip install -e .\` makes both agree`,
      );
  }
  return notes;
}

/**
 * A folder configured for pytest, or one holding pytest-style tests. A src layout
 * (src/<pkg>/__init__.py with pyproject.toml or setup.cfg) gets the runner option
 * `env: { PYTHONPATH: "src" }` unless pytest's own `pythonpath` setting already names src.
 */
export async function detectPytest(dir: string): Promise<DetectedProject | null> {
  const reason = await why(dir);
  if (!reason) return null;
  const layout = await pythonLayout(dir);
  if (!layout) return { name: basename(dir), reason };
  const notes: string[] = [];
  const pytestPath = layout.kind === 'src' && (await pytestPathHasSrc(dir));
  const env: Record<string, string> = layout.kind === 'src' && !pytestPath ? { PYTHONPATH: 'src' } : {};
  if (layout.kind === 'src') {
    const where = layout.packages.map((p) => `src/${p}`).join(', ');
    notes.push(
      pytestPath
        ? `src layout (${where}): pytest's pythonpath setting puts src first`
        : `src layout (${where}): env PYTHONPATH=src, so the tests import the source`,
    );
  }
  notes.push(...(await shadowNotes(dir, layout, pytestPath)));
  return {
    name: basename(dir),
    reason,
    ...(Object.keys(env).length > 0 ? { options: { env } } : {}),
    ...(notes.length > 0 ? { notes } : {}),
  };
}
