import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureSchema, RunResultSchema, ScopeSchema, type RunResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];

async function copy(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `suture-pytest-${name}-`));
  temps.push(dir);
  await cp(join(here, name), dir, { recursive: true });
  return dir;
}

async function run(
  root: string,
  extra: { selection?: string[]; timeoutMs?: number } = {},
): Promise<RunResult> {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
  temps.push(workDir);
  return RunResultSchema.parse(
    await pytest().run({
      root,
      workDir,
      timeoutMs: extra.timeoutMs ?? 60_000,
      signal: new AbortController().signal,
      logger: silentLogger,
      ...(extra.selection ? { selection: extra.selection } : {}),
    }),
  );
}

const project = (root: string) => ({ name: 't', root, scopeDepth: 3, logger: silentLogger });

afterAll(async () => {
  await Promise.all(temps.map((d) => rm(d, { recursive: true, force: true })));
});

describe('pytest runner on a real project', () => {
  let root: string;
  let result: RunResult;
  beforeAll(async () => {
    root = await copy('basic');
    result = await run(root);
  });

  it('reports every test with its status, file and 1-based line', () => {
    const byId = Object.fromEntries(result.tests.map((t) => [t.id, t]));
    expect(result.status).toBe('failed');
    expect(byId['tests/test_cart.py::test_subtotal']).toMatchObject({
      status: 'passed',
      file: 'tests/test_cart.py',
      line: 7,
    });
    expect(byId['tests/test_cart.py::test_total_with_discount']).toMatchObject({
      status: 'failed',
      line: 12,
    });
    expect(byId['tests/test_cart.py::test_tax[5-2]']!.status).toBe('failed');
    expect(byId['tests/test_cart.py::test_tax[x[y]-0]']!.status).toBe('passed');
    expect(byId['tests/test_cart.py::TestCart::test_empty']).toMatchObject({ status: 'passed', line: 25 });
    expect(byId['tests/test_cart.py::TestCart::test_skip']!.status).toBe('skipped');
    expect(byId['tests/test_cart.py::test_total_with_discount']!.message).toMatch(
      /AssertionError: assert 180\.0 == 170/,
    );
  });

  it('writes nothing into the project (no __pycache__, no .pytest_cache)', async () => {
    const all = await readdir(root, { recursive: true });
    expect(all.filter((f) => /__pycache__|\.pytest_cache/.test(String(f)))).toEqual([]);
  });

  it('re-runs exactly the selected nodeids, brackets and classes included', async () => {
    const selected = await run(root, {
      selection: ['tests/test_cart.py::test_tax[5-2]', 'tests/test_cart.py::TestCart::test_empty'],
    });
    expect(selected.selected).toBe(true);
    expect(selected.tests.map((t) => [t.id, t.status]).sort()).toEqual([
      ['tests/test_cart.py::TestCart::test_empty', 'passed'],
      ['tests/test_cart.py::test_tax[5-2]', 'failed'],
    ]);
  });

  it('treats an unknown nodeid as a usage error, not a test failure', async () => {
    const r = await run(root, { selection: ['tests/test_cart.py::test_nope'] });
    expect(r.status).toBe('error');
    expect(r.error).toMatch(/usage error \(exit code 4\)[\s\S]*not found/);
  });

  it('locates an assertion in the test and scopes the code it calls through imports and fixtures', async () => {
    const analyzer = pytest().analyzer!();
    const failures = (await analyzer.analyze(result, project(root))).map((f) =>
      FailureSchema.parse({ ...f, id: f.fingerprint }),
    );
    const discount = failures.find((f) => f.tests.includes('tests/test_cart.py::test_total_with_discount'))!;
    expect(discount.kind).toBe('assertion');
    expect(discount.location).toMatchObject({
      file: 'tests/test_cart.py',
      line: 14,
      symbol: 'test_total_with_discount',
    });
    const scope = ScopeSchema.parse(await analyzer.scope(discount, project(root)));
    const files = Object.fromEntries(scope.entries.map((e) => [e.file, e]));
    expect(files['tests/conftest.py']!.reasons.join()).toMatch(/fixture "cart"/);
    expect(files['shop/cart.py']!.symbols).toEqual(expect.arrayContaining(['Cart.total']));
    expect(files['shop/pricing.py']!.symbols).toContain('discount');
    expect(files['shop/pricing.py']!.reasons.join()).toMatch(/calls discount/);
  });

  it('limits the walk to the configured depth', async () => {
    const analyzer = pytest().analyzer!();
    const [failure] = (await analyzer.analyze(result, project(root))).filter((f) =>
      f.tests.includes('tests/test_cart.py::test_total_with_discount'),
    );
    const shallow = ScopeSchema.parse(
      await analyzer.scope(FailureSchema.parse({ ...failure, id: 'x' }), { ...project(root), scopeDepth: 0 }),
    );
    // depth 0 keeps the seeds only: the test and the fixture it uses, nothing they call
    expect(shallow.entries.map((e) => e.file).sort()).toEqual(['tests/conftest.py', 'tests/test_cart.py']);
  });

  it('keeps the fingerprint when the failure moves down a few lines', async () => {
    const analyzer = pytest().analyzer!();
    const before = await analyzer.analyze(result, project(root));
    const { readFile, writeFile } = await import('node:fs/promises');
    const file = join(root, 'tests/test_cart.py');
    await writeFile(file, `# moved\n\n\n${await readFile(file, 'utf8')}`);
    const after = await analyzer.analyze(await run(root), project(root));
    expect(after.map((f) => f.fingerprint).sort()).toEqual(before.map((f) => f.fingerprint).sort());
  });

  it('detects the project and checks Python syntax', async () => {
    expect(await pytest().detect!(root)).toMatchObject({ reason: expect.stringMatching(/test_/) });
    const analyzer = pytest().analyzer!();
    expect(analyzer.checkSyntax!('a.py', 'def f(:\n  pass\n')).toMatch(/syntax error near line 1/);
    expect(analyzer.checkSyntax!('a.py', 'def f():\n  pass\n')).toBeUndefined();
  });
});

describe('pytest runner edge cases', () => {
  it('kills a hanging test at the wall-clock limit, names it and keeps the other results', async () => {
    const root = await copy('hang');
    const r = await run(root, { timeoutMs: 4000 });
    expect(r.status).toBe('timeout');
    const byId = Object.fromEntries(r.tests.map((t) => [t.id, t.status]));
    expect(byId['tests/test_hang.py::test_first']).toBe('passed');
    expect(byId['tests/test_hang.py::test_loops_forever']).toBe('timeout');
    expect(r.error).toMatch(/while running tests\/test_hang\.py::test_loops_forever/);
    const failures = await pytest().analyzer!().analyze(r, project(root));
    expect(failures.map((f) => [f.kind, f.tests])).toEqual([
      ['timeout', ['tests/test_hang.py::test_loops_forever']],
    ]);
  });

  it('reports deep recursion as an exception with its nodeid', async () => {
    const root = await copy('hang');
    const r = await run(root, { selection: ['tests/test_hang.py::test_recursion'] });
    const failures = await pytest().analyzer!().analyze(r, project(root));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'exception', tests: ['tests/test_hang.py::test_recursion'] });
    expect(failures[0]!.title).toMatch(/RecursionError/);
  });

  it('groups a broken import that stops three test modules into one import failure', async () => {
    const root = await copy('collect');
    const r = await run(root);
    expect(r.status).toBe('failed');
    expect(r.diagnostics).toHaveLength(3);
    expect(r.tests.find((t) => t.id === 'tests/test_ok.py::test_ok')!.status).toBe('passed');
    const failures = await pytest().analyzer!().analyze(r, project(root));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'import', location: { file: 'pkg/core.py', line: 1 } });
    expect(failures[0]!.title).toMatch(/helper_that_does_not_exist/);
  });

  it('locates a collection error that pytest formatted in colour (FORCE_COLOR, as CI systems set)', async () => {
    const root = await copy('collect');
    const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
    temps.push(workDir);
    const r = RunResultSchema.parse(
      await pytest({ env: { FORCE_COLOR: 'true' } }).run({
        root,
        workDir,
        timeoutMs: 60_000,
        signal: new AbortController().signal,
        logger: silentLogger,
      }),
    );
    expect(r.diagnostics.map((d) => [d.file, d.line])).toEqual([
      ['pkg/core.py', 1],
      ['pkg/core.py', 1],
      ['pkg/core.py', 1],
    ]);
    expect(r.diagnostics.map((d) => d.raw).join('')).not.toContain('\u001b[');
  });

  it('classifies a refused connection as infra, not repairable', async () => {
    const root = await copy('infra');
    const r = await run(root);
    const failures = await pytest().analyzer!().analyze(r, project(root));
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ kind: 'infra', repairable: false });
  });

  it('says how to install when the interpreter is missing', async () => {
    const root = await copy('basic');
    const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
    temps.push(workDir);
    const r = await pytest({ python: 'python-does-not-exist' }).run({
      root,
      workDir,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
      logger: silentLogger,
    });
    expect(r.status).toBe('error');
    expect(r.error).toMatch(
      /^cannot start python-does-not-exist: .*; install Python 3, or set the runner option "python" to the interpreter that has it/,
    );
  });
});
