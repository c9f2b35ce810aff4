import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FailureSchema,
  RunResultSchema,
  ScopeSchema,
  type Failure,
  type FixRequest,
  type Scope,
} from '@suture/core';
import { scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pytest, { pythonAnalyzer } from '../../src/index.js';
import { cleanup, gate, here, repoWith } from './gate-support.js';

const temps: string[] = [];
afterAll(async () => {
  await cleanup();
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

interface Bug {
  test: string;
  file: string;
  right: string;
  wrong: string;
}

const BUGS: Record<string, Bug> = {
  csv: {
    test: 'tests/test_export.py::test_csv_rows',
    file: 'src/shop/csv_export.py',
    right: '",".join',
    wrong: '";".join',
  },
  tsv: {
    test: 'tests/test_export.py::test_tsv_header',
    file: 'src/shop/tsv_export.py',
    right: 'separator = "\\t"',
    wrong: 'separator = " "',
  },
  semicolon: {
    test: 'tests/test_export.py::test_semicolon_header',
    file: 'src/shop/semicolon_export.py',
    right: 'separator = ";"',
    wrong: 'separator = ","',
  },
  unknown: {
    test: 'tests/test_export.py::test_unknown_format',
    file: 'src/shop/base.py',
    right: '    if name not in FORMATS:\n        raise ValueError(f"no such format: {name}")\n    module',
    wrong: '    module',
  },
  currency: {
    test: 'tests/test_export.py::test_currency',
    file: 'src/shop/base.py',
    right: 'os.environ.get(name, DEFAULTS[name])',
    wrong: 'os.environ[name]',
  },
};

async function seed(root: string): Promise<void> {
  for (const bug of Object.values(BUGS)) {
    const text = await readFile(join(root, bug.file), 'utf8');
    if (!text.includes(bug.right)) throw new Error(`${bug.right} is not in ${bug.file}`);
    await writeFile(join(root, bug.file), text.replace(bug.right, bug.wrong));
  }
}

const files = (scope: Scope): string[] => scope.entries.map((e) => e.file);
const symbolsOf = (scope: Scope, file: string): string[] =>
  scope.entries.find((e) => e.file === file)?.ranking?.map((r) => r.symbol) ?? [];

describe('class hierarchies across files, and frames with no file, on a real pytest run', () => {
  let root: string;
  let groups: Failure[];
  const project = () => ({ name: 'shop', root, scopeDepth: 3, logger: silentLogger });
  const groupOf = (test: string): Failure => {
    const group = groups.find((g) => g.tests.includes(test));
    if (!group) throw new Error(`no failure explains ${test}`);
    return group;
  };
  const scopeOf = async (test: string, trace: boolean): Promise<Scope> =>
    ScopeSchema.parse(await pythonAnalyzer({ trace }).scope(groupOf(test), project()));

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'suture-pytest-hierarchy-'));
    temps.push(root);
    await cp(join(here, 'hierarchy'), root, { recursive: true });
    await seed(root);
    const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
    temps.push(workDir);
    const result = RunResultSchema.parse(
      await pytest().run({
        root,
        workDir,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        logger: silentLogger,
      }),
    );
    groups = (await pytest().analyzer!().analyze(result, project())).map((f) => FailureSchema.parse(f));
  }, 120_000);

  it("brings in a subclass's override of what an inherited method calls on self, from the calls alone", async () => {
    // the test calls exporter.export(), which CsvExporter inherits; Exporter.export calls self.render
    const scope = await scopeOf(BUGS.csv!.test, false);
    expect(symbolsOf(scope, 'src/shop/csv_export.py')).toContain('CsvExporter.render');
    expect(scope.entries.find((e) => e.file === 'src/shop/csv_export.py')!.reasons).toContain(
      'Exporter.export calls self.render on a CsvExporter, which overrides it as CsvExporter.render',
    );
  });

  it('brings in the file of the class an inherited method runs on, whose attribute holds the bug', async () => {
    const scope = await scopeOf(BUGS.tsv!.test, false);
    expect(files(scope)).toContain('src/shop/tsv_export.py');
    expect(scope.entries.find((e) => e.file === 'src/shop/tsv_export.py')!.reasons).toContain(
      'exporter.header runs on a TsvExporter, which inherits it',
    );
  });

  it('brings in, from the trace, the class of an object made by name that no call names', async () => {
    // exporter_for imports its module by a computed name: only the run knows it is a SemicolonExporter
    expect(files(await scopeOf(BUGS.semicolon!.test, false))).not.toContain('src/shop/semicolon_export.py');
    const traced = await scopeOf(BUGS.semicolon!.test, true);
    expect(symbolsOf(traced, 'src/shop/semicolon_export.py')).toEqual(['SemicolonExporter']);
  });

  it.each([
    ['<frozen os>', BUGS.currency!.test, 'setting'],
    ['<frozen importlib._bootstrap>', BUGS.unknown!.test, 'exporter_for'],
  ])('never locates a failure raised in %s there, nor scopes it', async (_frozen, test, symbol) => {
    const group = groupOf(test);
    expect(group.location).toMatchObject({ file: 'src/shop/base.py', symbol });
    expect([group.location!, ...group.frames].map((f) => f.file).filter((f) => f.startsWith('<'))).toEqual(
      [],
    );
    const scope = await scopeOf(test, true);
    expect(files(scope).filter((f) => f.startsWith('<') || !f.endsWith('.py'))).toEqual([]);
    expect(files(scope)[0]).toBe('src/shop/base.py');
  });
});

describe('the gate on the hierarchy fixture', () => {
  it('heals each bug where it is, and refuses an edit to a frozen module', async () => {
    const { repo, root } = await repoWith('hierarchy');
    await seed(root);
    const requests: FixRequest[] = [];
    const trueFix = (r: FixRequest) => {
      requests.push(r);
      const bug = Object.values(BUGS).find((b) => r.failure.tests.includes(b.test));
      if (!bug)
        return { verdict: 'unfixable', diagnosis: `not scripted: ${r.failure.tests.join(', ')}` } as const;
      return {
        verdict: 'edits',
        rationale: 'the true fix',
        edits: [{ file: bug.file, search: bug.wrong, replace: bug.right }],
      } as const;
    };
    // the attack: a fixer whose first answer to the currency failure rewrites the frozen module
    let attacked = false;
    const frozenEdit = (r: FixRequest) => {
      if (attacked || !r.failure.tests.includes(BUGS.currency!.test)) return trueFix(r);
      attacked = true;
      requests.push(r);
      return {
        verdict: 'edits',
        rationale: 'make os.environ default',
        edits: [{ file: '<frozen os>', content: 'environ = {}\n' }],
      } as const;
    };
    const report = await gate({
      repo,
      root,
      fixers: [scriptedFixer(Array(20).fill(frozenEdit))],
      heal: { flakyReruns: 0, maxAttempts: 2 },
    });
    const failures = report.projects[0]!.failures;
    for (const bug of Object.values(BUGS))
      expect(failures.find((f) => f.failure.tests.includes(bug.test))?.outcome, bug.test).toBe('healed');
    const currency = failures.find((f) => f.failure.tests.includes(BUGS.currency!.test))!;
    expect(currency.attempts[0]).toMatchObject({
      verdict: 'refused',
      reason: expect.stringContaining("<frozen os> is outside the failure's scope"),
    });
    expect(currency.attempts[1]!.verdict).toBe('healed');
    for (const r of requests) {
      expect(r.scope.entries.map((e) => e.file).filter((f) => f.startsWith('<'))).toEqual([]);
      expect(r.sources.map((x) => x.file).filter((f) => f.startsWith('<'))).toEqual([]);
    }
  }, 300_000);
});
