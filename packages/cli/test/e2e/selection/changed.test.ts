import { execFileSync } from 'node:child_process';
import { appendFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, suture, workspace } from '../cli-support.js';

afterAll(cleanup);

// A shop with five tests: each reaches different code. Only test_render reaches shop/_fmt.py
// (through shop/report.py), only test_rates reads tests/data/rates.json.
const FILES: Record<string, string> = {
  'py/shop/__init__.py': '',
  'py/shop/pricing.py': `TAX = 10


def gross(net):
    return net + net * TAX // 100


def discount(price, pct):
    if pct > 50:
        raise ValueError("too much")
    return price - price * pct // 100
`,
  'py/shop/_fmt.py': `def money(cents):
    return "%d.%02d" % (cents // 100, cents % 100)
`,
  'py/shop/report.py': `from shop._fmt import money


def render(total):
    return "total: " + money(total)
`,
  'py/tests/conftest.py': `import pytest


@pytest.fixture
def cart():
    return [100, 250]
`,
  'py/tests/test_pricing.py': `from shop.pricing import discount, gross


def test_gross():
    assert gross(100) == 110


def test_discount(cart):
    assert discount(cart[0], 10) == 90
`,
  'py/tests/test_report.py': `from shop.report import render


def test_render():
    assert render(1234) == "total: 12.34"
`,
  'py/tests/test_rates.py': `import json
import pathlib


def test_rates():
    rates = json.loads((pathlib.Path(__file__).parent / "data" / "rates.json").read_text())
    assert rates["vat"] == 10
`,
  'py/tests/data/rates.json': '{"vat": 10}\n',
  'py/shop/policy.py': `def check(pct):
    if pct > 50:
        raise ValueError("too much")
`,
  // reads check's source as text, and never runs it
  'py/tests/test_source.py': `import inspect

from shop import policy


def test_refuses_big_discounts():
    assert "raise ValueError" in inspect.getsource(policy.check)
`,
};

interface Selection {
  basis: 'record' | 'all';
  selected: number;
  total: number;
  fallback?: string;
  recorded?: true | string;
  reasons: Array<{ file: string; effect: string }>;
}
interface Report {
  exitCode: number;
  selection?: { commit: string; source: string; changed: number; error?: string };
  projects: Array<{
    selection?: Selection;
    rounds: Array<{ kind: string; tests: Array<{ id: string; status: string }> }>;
  }>;
}

const git = (dir: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.email=t@e', '-c', 'user.name=t', ...args], { cwd: dir, encoding: 'utf8' });

async function repo(config: Record<string, unknown> = {}): Promise<string> {
  const dir = await workspace();
  for (const [file, text] of Object.entries(FILES)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  await writeFile(
    join(dir, 'suture.config.json'),
    JSON.stringify({
      projects: [{ name: 'py', root: 'py', runner: 'pytest' }],
      fixers: ['hints'],
      heal: { flakyReruns: 0 },
      ...config,
    }),
  );
  await writeFile(join(dir, '.gitignore'), '.suture/\n');
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-qm', 'shop');
  return dir;
}

async function latest(dir: string): Promise<Report> {
  const runs = join(dir, '.suture/runs');
  const [run] = (await readdir(runs)).sort().reverse();
  return JSON.parse(await readFile(join(runs, run!, 'report.json'), 'utf8')) as Report;
}

async function gate(dir: string, args: string[] = ['--changed']) {
  const r = await suture(['run', '--no-heal', ...args], dir);
  const report = await latest(dir);
  const initial = report.projects[0]!.rounds.find((x) => x.kind === 'initial')!;
  return {
    ...r,
    output: r.stdout + r.stderr,
    report,
    selection: report.projects[0]!.selection!,
    ran: initial.tests.map((t) => t.id.replace(/^tests\//, '')).sort(),
    failed: initial.tests.filter((t) => t.status === 'failed').map((t) => t.id),
  };
}

const ALL = [
  'test_pricing.py::test_discount',
  'test_pricing.py::test_gross',
  'test_rates.py::test_rates',
  'test_report.py::test_render',
  'test_source.py::test_refuses_big_discounts',
];

async function edit(dir: string, file: string, from: string, to: string): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  expect(text).toContain(from);
  await writeFile(path, text.replace(from, to));
}

describe('suture run --changed (pytest)', () => {
  it('with no record runs everything and says why, records, then runs only the tests that ran a changed function', async () => {
    const dir = await repo();
    const first = await gate(dir);
    expect(first.code, first.output).toBe(0);
    expect(first.selection).toMatchObject({ basis: 'all', selected: 5, total: 5, recorded: true });
    expect(first.selection.fallback).toMatch(/no selection record for this project yet/);
    expect(first.report.selection).toMatchObject({ source: 'merge base of HEAD and main', changed: 0 });
    expect(first.output).toMatch(/ran all 5 tests: no selection record/);

    // a change inside discount()'s body: only the test that ran that line
    await edit(
      dir,
      'py/shop/pricing.py',
      'return price - price * pct // 100',
      'return price - (price * pct) // 100',
    );
    const second = await gate(dir);
    expect(second.code, second.output).toBe(0);
    expect(second.ran).toEqual(['test_pricing.py::test_discount']);
    expect(second.selection).toMatchObject({ basis: 'record', selected: 1, total: 5 });
    expect(second.selection.reasons).toEqual([
      { file: 'py/shop/pricing.py', effect: expect.stringContaining('test_discount') },
    ]);
    expect(second.output).toMatch(/selected 1 of 5 tests by what the change reaches/);
    expect(second.output).toMatch(
      /--changed: 1 file\(s\) differ from [0-9a-f]{12} \(merge base of HEAD and main\); 1 of 5 tests selected/,
    );

    // the JUnit suite says it too
    const runs = join(dir, '.suture/runs');
    const [run] = (await readdir(runs)).sort().reverse();
    const xml = await readFile(join(runs, run!, 'results.xml'), 'utf8');
    expect(xml).toMatch(/<property name="suture\.selection\.selected" value="1"\/>/);
    expect(xml).toMatch(/<property name="suture\.selection\.total" value="5"\/>/);
    expect(xml).toMatch(/<property name="suture\.selection\.basis" value="record"\/>/);
    const summary = await readFile(join(runs, run!, 'summary.md'), 'utf8');
    expect(summary).toMatch(/- py: selected 1 of 5 tests by what the change reaches/);

    // committed, and measured from HEAD: the record still holds the version before the change, so
    // the test that ran the changed line still runs, until a run records it again on the new one
    git(dir, 'commit', '-qam', 'parenthesised');
    const head = await gate(dir, ['--changed', 'HEAD']);
    expect(head.report.selection).toMatchObject({ source: 'given: HEAD', changed: 0 });
    expect(head.ran).toEqual(['test_pricing.py::test_discount']);
    expect(head.selection.recorded).toBeUndefined();
    const recording = await gate(dir, ['--changed', 'HEAD', '--record']);
    expect(recording.selection).toMatchObject({ basis: 'record', selected: 1, recorded: true });
    const none = await gate(dir, ['--changed', 'HEAD']);
    expect(none.code, none.output).toBe(0);
    expect(none.ran).toEqual([]);
    const fromParent = await gate(dir, ['--changed', 'HEAD~1']);
    expect(fromParent.ran).toEqual(['test_pricing.py::test_discount']);
  });

  it('runs every test when a conftest.py, a module-level constant or a build file changes', async () => {
    const dir = await repo({ select: 'changed' });
    // select: "changed" in the config, without the flag
    expect((await gate(dir, [])).selection).toMatchObject({ basis: 'all', recorded: true });

    await appendFile(join(dir, 'py/tests/conftest.py'), '\n\n@pytest.fixture\ndef empty():\n    return []\n');
    const conftest = await gate(dir, []);
    expect(conftest.ran).toEqual(ALL);
    expect(conftest.selection.fallback).toMatch(
      /py\/tests\/conftest\.py changed: a build, dependency or shared test-setup file/,
    );
    git(dir, 'commit', '-qam', 'fixture');

    await edit(dir, 'py/shop/pricing.py', 'TAX = 10', 'TAX = 10  # percent');
    const constant = await gate(dir, []);
    expect(constant.ran).toEqual(ALL);
    expect(constant.selection.fallback).toMatch(
      /py\/shop\/pricing\.py:1 changed: code that runs for every test that loads the file/,
    );
    git(dir, 'commit', '-qam', 'comment');

    await writeFile(join(dir, 'py/pyproject.toml'), '[tool.pytest.ini_options]\n');
    const build = await gate(dir, []);
    expect(build.ran).toEqual(ALL);
    expect(build.selection.fallback).toMatch(/py\/pyproject\.toml changed/);
  });

  it('names the fallback when the record is gone or the base cannot be read', async () => {
    const dir = await repo();
    await gate(dir);
    await rm(join(dir, '.suture/selection'), { recursive: true });
    await edit(dir, 'py/shop/pricing.py', 'return net + net * TAX // 100', 'return net + (net * TAX) // 100');
    const gone = await gate(dir);
    expect(gone.ran).toEqual(ALL);
    expect(gone.selection.fallback).toMatch(/no selection record for this project yet/);
    const bad = await gate(dir, ['--changed', 'no-such-branch']);
    expect(bad.code, bad.output).toBe(0);
    expect(bad.ran).toEqual(ALL);
    expect(bad.selection.fallback).toMatch(/--changed no-such-branch: git knows no commit by that name/);
    expect(bad.report.selection?.error).toMatch(/no-such-branch/);
  });

  it('says so when coverage.py is missing: nothing is recorded and every test runs', async () => {
    const dir = await repo();
    // an interpreter whose coverage module cannot be imported
    await mkdir(join(dir, 'shadow'));
    await writeFile(join(dir, 'shadow/coverage.py'), 'raise ImportError("no coverage here")\n');
    await writeFile(join(dir, 'python'), `#!/bin/sh\nPYTHONPATH=${join(dir, 'shadow')} exec python3 "$@"\n`, {
      mode: 0o755,
    });
    await writeFile(
      join(dir, 'suture.config.json'),
      JSON.stringify({
        projects: [{ name: 'py', root: 'py', runner: ['pytest', { python: join(dir, 'python') }] }],
        fixers: ['hints'],
        heal: { flakyReruns: 0 },
      }),
    );
    git(dir, 'add', '-A');
    git(dir, 'commit', '-qm', 'no coverage');
    const r = await gate(dir);
    expect(r.code, r.output).toBe(0);
    expect(r.ran).toEqual(ALL);
    expect(r.selection.fallback).toMatch(
      /none can be made: coverage\.py is not installed for .*pip install coverage/,
    );
    expect(r.selection.recorded).toMatch(/coverage\.py is not installed/);
    expect(r.output).toMatch(/not recorded: coverage\.py is not installed/);
  });

  // The attack: a change that breaks a test must select that test.
  it('selects (and fails) the one test a broken helper reaches, the test that reads a changed source file, and the test a changed data file feeds', async () => {
    const dir = await repo();
    expect((await gate(dir)).code).toBe(0);

    // shop/_fmt.py is reached only through shop/report.py, only by test_render
    await edit(dir, 'py/shop/_fmt.py', '% (cents // 100, cents % 100)', '% (cents // 10, cents % 100)');
    const helper = await gate(dir);
    expect(helper.code, helper.output).toBe(1);
    expect(helper.ran).toEqual(['test_report.py::test_render']);
    expect(helper.failed).toEqual(['tests/test_report.py::test_render']);
    expect(helper.selection).toMatchObject({ basis: 'record', selected: 1, total: 5 });
    // a red run does not record, even when asked to
    expect(helper.selection.recorded).toBeUndefined();
    const red = await gate(dir, ['--changed', '--record']);
    expect(red.selection.recorded).toBe('the run failed: only a green run records');
    await edit(dir, 'py/shop/_fmt.py', '% (cents // 10, cents % 100)', '% (cents // 100, cents % 100)');

    // a test that reads a function's source runs when that function changes, though it never ran it
    await edit(dir, 'py/shop/policy.py', 'raise ValueError("too much")', 'raise KeyError("too much")');
    const source = await gate(dir);
    expect(source.code, source.output).toBe(1);
    expect(source.ran).toEqual(['test_source.py::test_refuses_big_discounts']);
    expect(source.failed).toEqual(['tests/test_source.py::test_refuses_big_discounts']);
    await edit(dir, 'py/shop/policy.py', 'raise KeyError("too much")', 'raise ValueError("too much")');

    // a data file coverage cannot see: the test that reads it runs (with everything else)
    await writeFile(join(dir, 'py/tests/data/rates.json'), '{"vat": 20}\n');
    const data = await gate(dir);
    expect(data.code, data.output).toBe(1);
    expect(data.ran).toContain('test_rates.py::test_rates');
    expect(data.failed).toEqual(['tests/test_rates.py::test_rates']);
    expect(data.selection.fallback).toMatch(
      /py\/tests\/data\/rates\.json changed and no recorded test ran it/,
    );
  });
});
