import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema } from '@suture/core';
import { SummaryCache } from '@suture/core/analysis';
import { silentLogger } from '@suture/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pythonAnalyzer } from './index.js';
import { createPythonCache } from './python-model.js';
import { PythonProject } from './python-project.js';
import { summarizePython, type PyModule } from './python-summary.js';
import { TraceMemo } from './trace-memo.js';
import { traceTests, type Trace } from './trace.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-py-trace-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A data-driven test: one unittest test looping over cases as subtests, one case broken by a bug. */
async function dataDriven(): Promise<void> {
  await mkdir(join(root, 'tests'));
  await writeFile(
    join(root, 'toml_like.py'),
    [
      'def parse_int(text):',
      '    return int(text)',
      '',
      '',
      'def parse_str(text):',
      '    return text[1:-2]',
      '',
      '',
      'def parse_bool(text):',
      '    return text == "true"',
      '',
      '',
      'def loads(text):',
      '    if text.startswith("\\""):',
      '        return parse_str(text)',
      '    if text in ("true", "false"):',
      '        return parse_bool(text)',
      '    return parse_int(text)',
      '',
    ].join('\n'),
  );
  const cases = [
    ['1', 1],
    ['42', 42],
    ['true', true],
    ['false', false],
    ['"a"', 'a'],
    ['"bc"', 'bc'],
    ['7', 7],
  ];
  await writeFile(
    join(root, 'tests/test_data.py'),
    [
      'import unittest',
      'from toml_like import loads',
      '',
      `CASES = ${JSON.stringify(cases)
        .replace(/true\]/g, 'True]')
        .replace(/false\]/g, 'False]')}`,
      '',
      '',
      'class TestData(unittest.TestCase):',
      '    def test_valid(self):',
      '        for text, expected in CASES:',
      '            with self.subTest(msg=text):',
      '                self.assertEqual(loads(text), expected)',
      '',
      '',
      'def test_int():',
      '    assert loads("3") == 3',
      '',
    ].join('\n'),
  );
}

describe('the tracer', () => {
  it('records what each subtest ran, with its outcome, and only files of the project', async () => {
    await dataDriven();
    const trace = await traceTests(root, ['tests/test_data.py::TestData::test_valid'], {}, 60_000);
    expect(trace).toBeDefined();
    const run = trace!.get('tests/test_data.py::TestData::test_valid')!;
    expect(run.passed).toBe(false);
    const ran = (r: { entered: Array<[string, number]> }): number[] =>
      r.entered.filter(([f]) => f === 'toml_like.py').map(([, line]) => line);
    // parse_int at line 1, parse_str at 5, parse_bool at 9, loads at 13
    expect(run.subtests.map((s) => s.passed)).toEqual([true, true, true, true, false, false, true]);
    for (const s of run.subtests.filter((x) => !x.passed)) expect(ran(s)).toEqual([5, 13]);
    expect(ran(run.subtests[0]!)).toEqual([1, 13]);
    const files = new Set([...trace!.values()].flatMap((t) => t.entered.map(([f]) => f)));
    expect([...files].sort()).toEqual(['tests/test_data.py', 'toml_like.py']);
  });

  it('ranks first the function only the failing subtests ran, though one test ran every case', async () => {
    await dataDriven();
    const failure = FailureSchema.parse({
      id: 'p:x',
      kind: 'assertion',
      title: "AssertionError: '' != 'a'",
      tests: ['tests/test_data.py::TestData::test_valid'],
      location: { file: 'tests/test_data.py', line: 11, symbol: 'TestData.test_valid' },
      evidence: "AssertionError: '' != 'a'",
      fingerprint: 'x',
      repairable: true,
    });
    const analyzer = pythonAnalyzer();
    const info = { name: 'p', root, scopeDepth: 3, logger: silentLogger };
    const scope = ScopeSchema.parse(await analyzer.scope(failure, info));
    const ranked = scope.entries
      .flatMap((e) => (e.ranking ?? []).map((r) => ({ at: `${e.file}:${r.symbol}`, ...r })))
      .sort((a, b) => b.score - a.score);
    expect(ranked[0]).toMatchObject({ at: 'toml_like.py:parse_str' });
    expect(ranked[0]!.reason).toMatch(/^run by 2 of 2 failing tests and 0 of \d+ passing tests$/);
  });
});

describe('TraceMemo', () => {
  const projectOf = (): PythonProject => {
    const parser = createPythonCache(1);
    const summaries = new SummaryCache<PyModule>({
      name: 'python',
      version: 1,
      summarize: (source) => summarizePython(parser.parseText(source).tree),
    });
    return new PythonProject(root, summaries, []);
  };

  it('reuses a trace that entered a file too large to read, while the files it ran are unchanged', async () => {
    await writeFile(join(root, 'big.py'), `# ${'x'.repeat(3 * 1024 * 1024)}\ndef f():\n    pass\n`);
    await writeFile(join(root, 'small.py'), 'def g():\n    pass\n');
    const run = {
      passed: false,
      entered: [
        ['big.py', 2],
        ['small.py', 1],
      ] as Array<[string, number]>,
      subtests: [],
    };
    const trace: Trace = new Map([['test_x.py::test_x', run]]);
    const memo = new TraceMemo();
    await memo.set(projectOf(), ['test_x.py::test_x', 'test_x.py::test_gone'], trace);
    expect(await memo.known(projectOf(), ['test_x.py::test_x', 'test_x.py::test_gone'])).toEqual({
      trace: new Map([['test_x.py::test_x', run]]),
      missing: [],
    });
    await writeFile(join(root, 'small.py'), 'def g():\n    return 1\n');
    expect((await memo.known(projectOf(), ['test_x.py::test_x'])).missing).toEqual(['test_x.py::test_x']);
  });

  it("traces another group's tests along with the first group's, so its scope needs no run of its own", async () => {
    await mkdir(join(root, 'tests'));
    await writeFile(
      join(root, 'calc.py'),
      'def add(a, b):\n    return a - b\n\n\ndef neg(a):\n    return a\n',
    );
    await writeFile(
      join(root, 'tests/test_add.py'),
      'from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_add_zero():\n    assert add(0, 0) == 0\n',
    );
    await writeFile(
      join(root, 'tests/test_neg.py'),
      'from calc import neg\n\n\ndef test_neg():\n    assert neg(1) == -1\n\n\ndef test_neg_zero():\n    assert neg(0) == 0\n',
    );
    const memo = new TraceMemo();
    const project = projectOf();
    const first = await memo.take(
      project,
      {
        failing: ['tests/test_add.py::test_add'],
        passing: ['tests/test_add.py::test_add_zero'],
        prefetch: ['tests/test_neg.py::test_neg', 'tests/test_neg.py::test_neg_zero'],
      },
      {},
      60_000,
    );
    expect([...first!.keys()]).toEqual(['tests/test_add.py::test_add', 'tests/test_add.py::test_add_zero']);
    const second = await memo.known(project, [
      'tests/test_neg.py::test_neg',
      'tests/test_neg.py::test_neg_zero',
    ]);
    expect(second.missing).toEqual([]);
    expect(second.trace.get('tests/test_neg.py::test_neg')).toMatchObject({ passed: false });
    expect(second.trace.get('tests/test_neg.py::test_neg_zero')).toMatchObject({ passed: true });
  });
});
