import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { git, nx, nxWorkspace, type NxResult } from './workspace.js';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const project = (name: string): string => JSON.stringify({ name });

/** calc (pytest), app (pytest, imports calc, one wrong expectation) and web (Jest). */
const FILES = {
  'libs/calc/project.json': project('calc'),
  'libs/calc/calc.py': 'def add(a, b):\n    return a + b\n',
  'libs/calc/test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
  'apps/app/project.json': project('app'),
  'apps/app/app.py':
    'from calc import add\n\n\ndef total(xs):\n    return sum(xs)\n\n\ndef twice(x):\n    return add(x, x)\n',
  'apps/app/test_app.py':
    'from app import total, twice\n\n\ndef test_total():\n    assert total([1, 2]) == 4\n\n\ndef test_twice():\n    assert twice(2) == 4\n',
  'apps/web/project.json': project('web'),
  'apps/web/package.json': JSON.stringify({ name: 'web', private: true }),
  'apps/web/__tests__/math.test.js': "test('adds', () => {\n  expect(1 + 1).toBe(2);\n});\n",
};

// Nx puts node_modules/.bin and the folder of node first on a task's PATH, where another python3
// than the one with pytest may live (/usr/bin here): the runner finds the shell's python3 anyway.
const CONFIG = {
  projects: [
    { name: 'calc', root: 'libs/calc', runner: 'pytest' },
    {
      name: 'app',
      root: 'apps/app',
      runner: ['pytest', { env: { PYTHONPATH: '../../libs/calc' } }],
    },
    { name: 'web', root: 'apps/web', runner: 'jest' },
  ],
  fixers: [],
};

interface Report {
  exitCode: number;
  totals: { tests: number; failed: number };
  projects: Array<{ name: string; status: string; totals: { tests: number; failed: number } }>;
}

/** The merged report of the last nx command; when it is missing, the error shows what nx printed. */
async function merged(dir: string, after: NxResult): Promise<Report> {
  try {
    return JSON.parse(await readFile(join(dir, '.suture/nx-merged/report.json'), 'utf8')) as Report;
  } catch (error) {
    throw new Error(`no merged report after nx (exit ${after.code}):\n${after.output}`, { cause: error });
  }
}

describe('@suture/nx in a real Nx workspace', () => {
  it('infers a cached suture target per project, gates only affected projects, replays unchanged ones from the cache and merges the reports', async () => {
    const dir = await nxWorkspace(FILES, CONFIG);
    dirs.push(dir);

    const shown = JSON.parse(nx(dir, ['show', 'project', 'app', '--json']).output) as {
      targets: Record<
        string,
        { command?: string; options?: { command?: string }; cache?: boolean; outputs?: string[] }
      >;
    };
    const target = shown.targets.suture!;
    expect(target.cache).toBe(true);
    expect(target.outputs).toEqual(['{workspaceRoot}/.suture/nx/app']);
    expect(target.options?.command ?? target.command).toContain('suture run app --out .suture/nx/app');

    // the Python import of calc by app is an edge Nx itself would not find
    const printed = nx(dir, ['graph', '--file=stdout']).output;
    const graph = JSON.parse(printed.slice(printed.indexOf('{'))) as {
      graph: { dependencies: Record<string, Array<{ target: string }>> };
    };
    expect(graph.graph.dependencies.app!.map((d) => d.target)).toContain('calc');

    const all = nx(dir, ['run-many', '-t', 'suture']);
    expect(all.code).toBe(1); // app has a wrong expectation
    let report = await merged(dir, all);
    expect(report.projects.map((p) => [p.name, p.status]).sort()).toEqual([
      ['app', 'failed'],
      ['calc', 'completed'],
      ['web', 'completed'],
    ]);
    expect(report.totals).toMatchObject({ tests: 4, failed: 1 });
    expect(report.exitCode).toBe(1);

    // fix app's test and commit; then change calc only: calc and app (which imports it) are affected
    await writeFile(
      join(dir, 'apps/app/test_app.py'),
      FILES['apps/app/test_app.py'].replace('== 4\n', '== 3\n'),
    );
    git(dir, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'fix app test']);
    await writeFile(
      join(dir, 'libs/calc/calc.py'),
      `${FILES['libs/calc/calc.py']}\n\ndef sub(a, b):\n    return a - b\n`,
    );
    const affected = nx(dir, ['show', 'projects', '--affected', '--base=HEAD', '-t', 'suture']);
    expect(affected.output.trim().split('\n').sort()).toEqual(['app', 'calc']);

    const run = nx(dir, ['affected', '-t', 'suture', '--base=HEAD']);
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain('web:suture');
    report = await merged(dir, run);
    expect(report.projects.map((p) => [p.name, p.status]).sort()).toEqual([
      ['app', 'completed'],
      ['calc', 'completed'],
    ]);
    expect(report).toMatchObject({ exitCode: 0, totals: { tests: 3, failed: 0 } });

    // nothing changed since: every task is a cache hit, and the merge still holds all three projects
    await rm(join(dir, '.suture/nx'), { recursive: true, force: true });
    const again = nx(dir, ['run-many', '-t', 'suture']);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toMatch(
      /Nx read the output from the cache instead of running the command for 3 out of 3 tasks/,
    );
    report = await merged(dir, again);
    expect(report.projects.map((p) => p.name).sort()).toEqual(['app', 'calc', 'web']);
    expect(report.totals).toMatchObject({ tests: 4, failed: 0 });
    expect(await readFile(join(dir, '.suture/nx-merged/results.xml'), 'utf8')).toContain('test_twice');
  });
});
