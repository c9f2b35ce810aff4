import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RecordingSchema, RunResultSchema, type Recording, type RunResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';

const temps: string[] = [];
afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-pytest-record-'));
  temps.push(root);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, file, '..'), { recursive: true });
    await writeFile(join(root, file), text);
  }
  return root;
}

async function recorded(
  root: string,
  options: Parameters<typeof pytest>[0] = {},
): Promise<{ result: RunResult; recording: Recording }> {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
  temps.push(workDir);
  const record = join(workDir, 'recording.json');
  const result = RunResultSchema.parse(
    await pytest(options).run({
      root,
      workDir,
      record,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      logger: silentLogger,
    }),
  );
  return { result, recording: RecordingSchema.parse(JSON.parse(await readFile(record, 'utf8'))) };
}

const lines = (rec: Recording, test: string, file: string): string | undefined => {
  const t = rec.tests.find((x) => x.id === test);
  const entry = Object.entries(t?.lines ?? {}).find(([path]) => path.endsWith(`/${file}`));
  return entry?.[1];
};
const fileOf = (rec: Recording, file: string) =>
  Object.entries(rec.files).find(([path]) => path.endsWith(`/${file}`))?.[1];

const CALC = `LIMIT = 100


def add(a, b):
    total = (a +
             b)
    return total


def neg(a):
    return -a
`;

describe('recording what each pytest test ran', () => {
  it('gives each test the lines it ran, whole statements, and marks module-level code as shared', async () => {
    const root = await project({
      'calc.py': CALC,
      'tests/test_calc.py':
        'from calc import add, neg\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_neg():\n    assert neg(1) == -1\n',
      // reads add's source, never runs it
      'tests/test_source.py':
        'import inspect\n\nimport calc\n\n\ndef test_source():\n    assert "total" in inspect.getsource(calc.add)\n',
    });
    const { result, recording } = await recorded(root);
    expect(result.status).toBe('passed');
    expect(recording.unavailable).toBeUndefined();
    // the call spans lines 5-6: a change on its second line still reaches test_add
    expect(lines(recording, 'tests/test_calc.py::test_add', 'calc.py')).toBe('5-7');
    expect(lines(recording, 'tests/test_calc.py::test_neg', 'calc.py')).toBe('11');
    // a file read as text counts as run whole by the test that read it
    expect(lines(recording, 'tests/test_source.py::test_source', 'calc.py')).toBe('1-12');
    // the constant, the def lines: run once for every test that loads calc.py
    expect(fileOf(recording, 'calc.py')).toMatchObject({ shared: '1,4,10', code: '1,4-7,10-11' });
    expect(fileOf(recording, 'calc.py')?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('counts a module-scoped fixture for every test that uses it, and marks a test that starts a process', async () => {
    const root = await project({
      'helpers.py': 'def make_db():\n    rows = [1, 2]\n    return rows\n',
      'tests/test_db.py': [
        'import subprocess',
        'import sys',
        '',
        'import pytest',
        '',
        'from helpers import make_db',
        '',
        '',
        '@pytest.fixture(scope="module")',
        'def db():',
        '    return make_db()',
        '',
        '',
        'def test_first(db):',
        '    assert db == [1, 2]',
        '',
        '',
        'def test_second(db):',
        '    assert len(db) == 2',
        '',
        '',
        'def test_spawns():',
        '    subprocess.run([sys.executable, "-c", "pass"], check=True)',
        '',
      ].join('\n'),
    });
    const { result, recording } = await recorded(root);
    expect(result.status).toBe('passed');
    // the fixture's body ran once, during test_first's setup: it counts for test_second too
    expect(lines(recording, 'tests/test_db.py::test_first', 'helpers.py')).toBe('2-3');
    expect(lines(recording, 'tests/test_db.py::test_second', 'helpers.py')).toBe('2-3');
    const opaque = Object.fromEntries(recording.tests.map((t) => [t.id, t.opaque]));
    expect(opaque).toEqual({
      'tests/test_db.py::test_first': false,
      'tests/test_db.py::test_second': false,
      'tests/test_db.py::test_spawns': true,
    });
  });

  it('says why it cannot record when coverage.py is missing for the interpreter', async () => {
    const root = await project({ 'tests/test_x.py': 'def test_x():\n    assert True\n' });
    // an interpreter that hides coverage: -S-like isolation is not enough, so shadow the module
    await writeFile(join(root, 'coverage.py'), 'raise ImportError("hidden for the test")\n');
    const { result, recording } = await recorded(root);
    expect(result.status).toBe('passed');
    expect(recording.unavailable).toMatch(/coverage\.py is not installed for .*pip install coverage/);
    const rules = await pytest().selectionRules!(root);
    expect(rules.runAll).toEqual(
      expect.arrayContaining(['**/conftest.py', '**/pyproject.toml', '**/requirements*.txt']),
    );
    expect(rules.toolchain).toMatch(/python.*3\.\d+/);
  });
});
