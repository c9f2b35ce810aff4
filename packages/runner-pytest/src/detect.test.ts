import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectPytest } from './detect.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'detect-pytest-'));
  temps.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

const PYPROJECT = '[project]\nname = "shop"\nversion = "0.1.0"\n';
const SRC = {
  'pyproject.toml': PYPROJECT,
  'src/shop/__init__.py': 'def total(xs):\n    return sum(xs)\n',
  'tests/test_total.py': 'from shop import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n',
};

/** A real virtualenv in the project with a copy of the package installed into its site-packages. */
function installCopy(dir: string, from: string): string {
  execFileSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(dir, '.venv')]);
  const python = join(dir, '.venv/bin/python');
  const site = execFileSync(python, ['-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
    encoding: 'utf8',
  }).trim();
  execFileSync('cp', ['-r', join(dir, from), site]);
  return site;
}

describe('detectPytest on Python layouts', () => {
  it('gives a src layout PYTHONPATH=src, under which real Python imports the source', async () => {
    const dir = await project(SRC);
    const found = await detectPytest(dir);
    expect(found).toEqual({
      name: expect.any(String),
      reason: 'test_*.py files in tests/',
      options: { env: { PYTHONPATH: 'src' } },
      notes: ['src layout (src/shop): env PYTHONPATH=src, so the tests import the source'],
    });
    const run = (env: Record<string, string>): string =>
      spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider'], {
        cwd: dir,
        env: { ...process.env, ...env },
        encoding: 'utf8',
      }).stdout;
    expect(run(found!.options!.env as Record<string, string>)).toMatch(/1 passed/);
    expect(run({})).toMatch(/No module named 'shop'/);
  });

  it("warns that an installed copy shadows the source for a plain pytest, which suture's runs avoid", async () => {
    const dir = await project(SRC);
    const site = installCopy(dir, 'src/shop');
    const found = await detectPytest(dir);
    expect(found?.options).toEqual({ env: { PYTHONPATH: 'src' } });
    expect(found?.notes?.[1]).toBe(
      `warning: an installed copy of "shop" (${site}/shop/__init__.py) shadows src/shop for a plain \`pytest\`; suture's runs import the source (PYTHONPATH=src), and \`${dir}/.venv/bin/python -m pip install -e .\` makes both agree`,
    );
  });

  it('warns when the package resolves to another copy even with src first on the path', async () => {
    // setuptools' old `develop` installs wrote an easy-install.pth that puts the linked checkout
    // before PYTHONPATH: here a second checkout of the same project
    const other = await project(SRC);
    const dir = await project(SRC);
    const site = installCopy(dir, 'src/shop');
    await rm(join(site, 'shop'), { recursive: true });
    await writeFile(
      join(site, 'easy-install.pth'),
      [
        'import sys; sys.__plen = len(sys.path)',
        join(other, 'src'),
        "import sys; new = sys.path[sys.__plen:]; del sys.path[sys.__plen:]; p = getattr(sys, '__egginsert', 0); sys.path[p:p] = new; sys.__egginsert = p + len(new)",
        '',
      ].join('\n'),
    );
    const found = await detectPytest(dir);
    expect(found?.notes?.[1]).toBe(
      `warning: "shop" resolves to ${other}/src/shop/__init__.py, not to src/shop: an installed copy shadows the source, so the tests would test that copy; install the project in editable mode (${dir}/.venv/bin/python -m pip install -e .) or remove the copy`,
    );
    // what the note says is what a real pytest run with the detected options does
    const out = execFileSync(join(dir, '.venv/bin/python'), ['-c', 'import shop; print(shop.__file__)'], {
      cwd: dir,
      env: { ...process.env, PYTHONPATH: 'src' },
      encoding: 'utf8',
    });
    expect(out.trim()).toBe(join(other, 'src/shop/__init__.py'));
  });

  it("leaves PYTHONPATH out when pytest's own pythonpath names src", async () => {
    const dir = await project({
      ...SRC,
      'pyproject.toml': `${PYPROJECT}\n[tool.pytest.ini_options]\npythonpath = ["src"]\n`,
    });
    expect(await detectPytest(dir)).toEqual({
      name: expect.any(String),
      reason: 'pyproject.toml [tool.pytest.ini_options]',
      notes: ["src layout (src/shop): pytest's pythonpath setting puts src first"],
    });
  });

  it('finds tests split by kind under tests/ (tests/unit/test_*.py)', async () => {
    const dir = await project({ 'tests/unit/test_a.py': 'def test_a():\n    pass\n' });
    expect(await detectPytest(dir)).toEqual({
      name: expect.any(String),
      reason: 'test_*.py files in tests/',
    });
  });
});
