import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FailureSchema, RunResultSchema, ScopeSchema, type RunResult, type TestResult } from '@suture/core';
import { requireToolchain, scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, edit, project, run, gate } from './support.js';

afterAll(cleanup);

describe('CTest runner on a real CMake + GoogleTest project', () => {
  let root: string;
  let result: RunResult;
  beforeAll(async () => {
    root = await copy('calc');
    result = await run(root);
  }, 300_000);

  const byId = (r: RunResult) => Object.fromEntries(r.tests.map((t) => [t.id, t]));

  it('reports assertion failures with the file and line from GoogleTest', () => {
    const t = byId(result);
    expect(result.status).toBe('failed');
    expect(t['Calc.Adds']!.status).toBe('passed');
    expect(t['Calc.Scales']).toMatchObject({
      status: 'failed',
      file: 'tests/calc_test.cpp',
      details: { failureFile: 'tests/calc_test.cpp', failureLine: 9 },
    });
    expect(t['Calc.Scales']!.message).toMatch(/Which is: 7/);
  });

  it('classifies a segfault as crash and a timeout as timeout, not as failures', async () => {
    const t = byId(result);
    expect(t['Calc.Crashes']!.status).toBe('crashed');
    expect(t['slow']!.status).toBe('timeout');
    // the TIMEOUT property the project sets wins over the runner's own limit, and says so
    expect(t['slow']!.message).toMatch(
      /^ran past 2 s, the TIMEOUT property the project sets on this CTest entry/,
    );
    const failures = await ctest().analyzer!().analyze(result, project(root));
    // by the group that holds the test: CTest runs entries in parallel, so a group of several
    // tests may list another first
    const kindOf = (id: string) => failures.find((f) => f.tests.includes(id))?.kind;
    expect(kindOf('Calc.Crashes')).toBe('crash');
    expect(kindOf('slow')).toBe('timeout');
    expect(kindOf('Calc.Scales')).toBe('assertion');
  });

  it('reports every case of a whole binary registered as one entry, and re-runs only the failing one', async () => {
    const t = byId(result);
    expect(t['calc_all::All.Two']).toMatchObject({ status: 'failed', file: 'tests/all_test.cpp', line: 6 });
    expect(t['calc_all::All.Three']!.status).toBe('failed');
    expect(t['calc_all::All.One']).toMatchObject({ status: 'passed', file: 'tests/all_test.cpp', line: 5 });
    expect(t['calc_all']).toBeUndefined();
    const again = await run(root, { selection: ['calc_all::All.Three'] });
    expect(again.tests.map((x) => [x.id, x.status])).toEqual([['calc_all::All.Three', 'failed']]);
    // the targeted re-run describes the failure as the full run did, so the analyzer sees the same failure
    const same = (x: TestResult) => ({ file: x.file, line: x.line, message: x.message, details: x.details });
    expect(same(again.tests[0]!)).toEqual(same(t['calc_all::All.Three']!));
    expect(again.tests[0]!.message).toMatch(/\S/);
  });

  it('re-runs exactly the selected tests, a parametrized one included', async () => {
    const param = result.tests.find(
      (x) => x.id.startsWith('Factors/Factor.KeepsZero/') && x.status === 'failed',
    )!;
    expect(param.id).toBe('Factors/Factor.KeepsZero/3');
    const again = await run(root, { selection: [param.id, 'Calc.Adds'] });
    expect(again.tests.map((x) => [x.id, x.status]).sort()).toEqual([
      ['Calc.Adds', 'passed'],
      ['Factors/Factor.KeepsZero/3', 'failed'],
    ]);
    // the re-run locates the TEST as the full run did
    expect(param).toMatchObject({ file: 'tests/calc_test.cpp', line: 15 });
    expect(again.tests.find((x) => x.id === param.id)).toMatchObject({ file: param.file, line: param.line });
  });

  it('scopes a TEST body through its calls, includes and implementation files', async () => {
    const analyzer = ctest().analyzer!();
    const failure = (await analyzer.analyze(result, project(root))).find((f) =>
      f.tests.includes('Calc.Scales'),
    )!;
    const scope = ScopeSchema.parse(
      await analyzer.scope(FailureSchema.parse({ ...failure, id: 'x' }), project(root)),
    );
    const files = Object.fromEntries(scope.entries.map((e) => [e.file, e]));
    expect(files['tests/calc_test.cpp']!.symbols).toContain('Calc.Scales');
    expect(files['src/calc.cpp']!.symbols).toEqual(['scale']);
    expect(files['src/calc.h']!.reasons.join()).toMatch(/declares scale/);
  });

  it('turns a missing include and a misspelled identifier into one build group each, with fix-its, and never runs stale binaries', async () => {
    await edit(
      root,
      'src/calc.cpp',
      '#include "calc.h"',
      '#include "calc.h"\n\nstd::string name() { return "calc"; }',
    );
    const missing = await run(root);
    expect(missing.tests).toEqual([]);
    const [include] = await ctest().analyzer!().analyze(missing, project(root));
    expect(include).toMatchObject({
      kind: 'build',
      blocksAll: true,
      location: { file: 'src/calc.cpp', line: 3 },
    });
    const fixIts = include!.diagnostics!.flatMap((d) => d.fixIts ?? []);
    expect(fixIts).toContainEqual(
      expect.objectContaining({
        file: 'src/calc.cpp',
        line: 2,
        column: 1,
        endColumn: 1,
        replacement: '#include <string>\n',
      }),
    );
    await edit(root, 'src/calc.cpp', 'std::string name() { return "calc"; }', '');
    await edit(
      root,
      'src/calc.cpp',
      'int add(int a, int b) { return a + b; }',
      'int add(int a, int b) { int total = a + b; return totl; }',
    );
    const typo = await run(root);
    const groups = await ctest().analyzer!().analyze(typo, project(root));
    expect(groups).toHaveLength(1);
    expect(groups[0]!.diagnostics![0]).toMatchObject({
      message: expect.stringMatching(/'totl' was not declared in this scope; did you mean 'total'\?/),
      fixIts: [expect.objectContaining({ replacement: 'total' })],
    });
    await edit(root, 'src/calc.cpp', 'int total = a + b; return totl;', 'return a + b;');
  });

  it('reports a link error with the missing symbol', async () => {
    await edit(root, 'src/calc.cpp', 'int deref(const int* p) { return *p; }', '');
    const r = await run(root);
    const [link] = await ctest().analyzer!().analyze(r, project(root));
    expect(link).toMatchObject({ kind: 'build', details: { linker: true } });
    expect(link!.diagnostics![0]).toMatchObject({
      source: 'ld',
      code: 'undefined-reference',
      symbol: 'deref(int const*)',
    });
  });
});

describe('the CTest runner with Clang', () => {
  it("builds with the user's compiler and flags, and reads Clang's diagnostics and fix-its", async (ctx) => {
    requireToolchain(ctx, { command: 'clang++', install: 'apt-get install clang' });
    const root = await copy('calc');
    const workDir = await mkdtemp(join(tmpdir(), 'suture-ctest-work-'));
    const clang = ctest({ parallel: 2, configureArgs: ['-DCMAKE_CXX_COMPILER=clang++'] });
    const runClang = async () =>
      RunResultSchema.parse(
        await clang.run({
          root,
          workDir,
          timeoutMs: 300_000,
          signal: new AbortController().signal,
          logger: silentLogger,
        }),
      );
    const before = process.env.CXXFLAGS;
    process.env.CXXFLAGS = '-DSUTURE_USER_FLAG=1';
    try {
      await edit(
        root,
        'src/calc.cpp',
        'int add(int a, int b) { return a + b; }',
        'int add(int a, int b) { int total = a + b; return totl; }',
      );
      const broken = await runClang();
      const cache = await readFile(join(root, 'build-suture/CMakeCache.txt'), 'utf8');
      expect(cache).toMatch(/^CMAKE_CXX_COMPILER:\w+=.*clang\+\+$/m);
      expect(cache).toMatch(/^CMAKE_CXX_FLAGS:STRING=-DSUTURE_USER_FLAG=1 -fdiagnostics-parseable-fixits/m);
      const [group] = await ctest().analyzer!().analyze(broken, project(root));
      expect(group).toMatchObject({ kind: 'build', blocksAll: true, location: { file: 'src/calc.cpp' } });
      expect(group!.diagnostics![0]).toMatchObject({
        source: 'clang',
        symbol: 'totl',
        message: "use of undeclared identifier 'totl'; did you mean 'total'?",
        fixIts: [expect.objectContaining({ file: 'src/calc.cpp', replacement: 'total' })],
      });
      await edit(root, 'src/calc.cpp', 'int total = a + b; return totl;', 'return a + b;');
      // a change of the user's flags alone reconfigures the build folder
      process.env.CXXFLAGS = '-DSUTURE_USER_FLAG=2';
      const fixed = await runClang();
      expect(await readFile(join(root, 'build-suture/CMakeCache.txt'), 'utf8')).toMatch(
        /^CMAKE_CXX_FLAGS:STRING=-DSUTURE_USER_FLAG=2 -fdiagnostics-parseable-fixits/m,
      );
      expect(fixed.diagnostics).toEqual([]);
      expect(fixed.tests.find((t) => t.id === 'Calc.Adds')?.status).toBe('passed');
    } finally {
      if (before === undefined) delete process.env.CXXFLAGS;
      else process.env.CXXFLAGS = before;
    }
  });
});

describe('the CTest runner on a test built with AddressSanitizer', () => {
  it('reports the sanitizer error as a crash located at the faulting frame, not at main', async () => {
    const root = await copy('asan');
    const r = await run(root);
    expect(r.tests).toHaveLength(1);
    expect(r.tests[0]).toMatchObject({
      id: 'overflow',
      status: 'crashed',
      message: 'crashed: AddressSanitizer: heap-buffer-overflow',
      details: {
        frame: {
          file: 'src/buffer.cpp',
          line: 4,
          fn: expect.stringMatching(/^last\(std::vector<int.*> const&, int\)$/),
        },
      },
    });
    const [crash] = await ctest().analyzer!().analyze(r, project(root));
    expect(crash).toMatchObject({
      kind: 'crash',
      title: expect.stringMatching(/^overflow crashed in last\(/),
      location: { file: 'src/buffer.cpp', line: 4, symbol: 'last' },
    });
  });
});

describe('the gate with the CTest runner', () => {
  it('heals a logic bug with a scripted fix through the whole gate', async () => {
    const root = await copy('calc');
    const fix = {
      verdict: 'edits' as const,
      rationale: 'remove the off-by-one',
      edits: [{ file: 'src/calc.cpp', search: 'value * factor + 1', replace: 'value * factor' }],
    };
    const fixer = scriptedFixer(
      Array(20).fill((r: { failure: { tests: string[] } }) =>
        r.failure.tests.includes('Calc.Scales') ? fix : { verdict: 'unfixable', diagnosis: 'not scripted' },
      ),
    );
    const report = await gate(root, { fixers: [fixer], heal: { maxAttempts: 1 } });
    const scales = report.projects[0]!.failures.find((f) => f.failure.tests.includes('Calc.Scales'))!;
    expect(scales.outcome).toBe('healed');
    expect(scales.attempts[0]!.validation).toMatchObject({ passed: true });
  }, 600_000);
});
