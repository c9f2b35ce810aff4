import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, commitAll, readConfig, suture, workspace, writeTree } from './support.js';

afterAll(cleanup);

const FILES = {
  '.gitignore': '.venv/\n',
  'shop/pyproject.toml': '[project]\nname = "shop"\nversion = "0.2.0"\n',
  'shop/src/shop/__init__.py': '',
  'shop/src/shop/cart.py': 'def total(prices):\n    return sum(prices)\n',
  'shop/tests/test_cart.py':
    'from shop.cart import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_empty():\n    assert total([]) == 0\n',
};

/**
 * A real virtualenv in the project holding an installed copy of an older, buggy release, as a
 * non-editable `pip install .` of that release leaves it: the copy a plain `pytest` would test.
 */
function installOldRelease(project: string): string {
  execFileSync('python3', ['-m', 'venv', '--system-site-packages', '--without-pip', join(project, '.venv')]);
  const python = join(project, '.venv/bin/python');
  const site = execFileSync(python, ['-c', "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
    encoding: 'utf8',
  }).trim();
  execFileSync('cp', ['-r', join(project, 'src/shop'), site]);
  execFileSync('sh', [
    '-c',
    `printf 'def total(prices):\\n    return sum(prices) + 1\\n' > ${site}/shop/cart.py`,
  ]);
  return site;
}

interface Report {
  projects: Array<{ status: string; totals: { tests: number; passed: number; failed: number } }>;
}

describe('suture init on a src-layout Python project', () => {
  it('sets PYTHONPATH=src, warns about the installed copy, and the run tests the source', async () => {
    const dir = await workspace();
    await writeTree(dir, FILES);
    const site = installOldRelease(join(dir, 'shop'));
    commitAll(dir);

    const init = await suture(['init'], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(
      'found pytest project "shop" in shop (test_*.py files in tests/)\n  src layout (src/shop): env PYTHONPATH=src, so the tests import the source\n',
    );
    expect(init.stdout).toContain(
      `  warning: an installed copy of "shop" (${site}/shop/__init__.py) shadows src/shop for a plain \`pytest\``,
    );
    // the virtualenv is neither a project nor worth a line: it is a hidden folder
    expect(init.stdout).not.toMatch(/skipped/);
    const config = await readConfig(dir);
    expect(config.projects).toEqual([
      { name: 'shop', root: 'shop', runner: ['pytest', { env: { PYTHONPATH: 'src' } }] },
    ]);

    const run = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.projects.map((p) => [p.status, p.totals.tests, p.totals.passed])).toEqual([
      ['completed', 2, 2],
    ]);

    // the same run without the option tests the installed copy, whose total() is off by one
    config.projects[0]!.runner = 'pytest';
    await writeFile(join(dir, 'suture.config.json'), JSON.stringify(config));
    const plain = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    expect(plain.code).toBe(1);
    expect((JSON.parse(plain.stdout) as Report).projects[0]!.totals.failed).toBe(2);
  });
});
