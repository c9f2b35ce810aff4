import { stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type Failure, type FixRequest, type Scope } from '@suture/core';
import { requireToolchain, scriptedFixer } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crashBacktrace, CrashBacktraces } from '../../src/analyzer/crash-backtrace.js';
import ctest from '../../src/index.js';
import { cleanup, copy, edit, project, run, gate } from './support.js';

afterAll(cleanup);

const GDB = { command: 'gdb', install: 'apt-get install gdb' };

interface Bug {
  /** The failing test the bug shows in. */
  test: string;
  file: string;
  /** The function that holds the bug: the ground truth the scope must rank. */
  symbol: string;
  right: string;
  wrong: string;
}

/** One bug behind each construct a C/C++ scope must see through. */
const BUGS: Record<string, Bug> = {
  'an umbrella header included with angle brackets, declaring a function defined in a source named unlike it':
    {
      test: 'geom_test::Area.Rectangle',
      file: 'src/shapes_impl.cpp',
      symbol: 'area',
      right: 'return width * height;',
      wrong: 'return width + height;',
    },
  'a function named through a macro (GEOM_FUNC(perimeter) is geom_perimeter)': {
    test: 'geom_test::Perimeter.Rectangle',
    file: 'src/macro_funcs.cpp',
    symbol: 'perimeter',
    right: 'return 2 * (width + height);',
    wrong: 'return 2 * width + height;',
  },
  "a function named through a macro the build's compile definitions select (GEOM_LONG_NAMES)": {
    test: 'geom_test::Diagonal.Rectangle',
    file: 'src/api_funcs.cpp',
    symbol: 'diagonal_squared',
    right: 'return width * width + height * height;',
    wrong: 'return width * width + height * width;',
  },
  'a source file included by a header the test includes (a static helper)': {
    test: 'geom_test::Halve.Even',
    file: 'src/internal.cpp',
    symbol: 'halve',
    right: 'return value / 2;',
    wrong: 'return value / 2 + 1;',
  },
  'a header and source of the same name': {
    test: 'geom_test::Clamp.High',
    file: 'src/bounds.cpp',
    symbol: 'clamp',
    right: 'if (value > high) return high;',
    wrong: 'if (value > high) return low;',
  },
  'a segfault that stops the whole GoogleTest program': {
    test: 'geom_test::First.Empty',
    file: 'src/bounds.cpp',
    symbol: 'first_or_zero',
    right: 'if (count > 0) return values[0];',
    wrong: 'if (count >= 0) return values[0];',
  },
};

async function seed(root: string): Promise<void> {
  for (const bug of Object.values(BUGS)) await edit(root, bug.file, bug.right, bug.wrong);
}

/** 1-based rank of a function in a scope's ranking across files, or Infinity when it is not in it. */
function rankOf(scope: Scope, file: string, symbol: string): number {
  const ranked = scope.entries
    .flatMap((e) => (e.ranking ?? []).map((r) => ({ file: e.file, ...r })))
    .sort((a, b) => b.score - a.score);
  const at = ranked.findIndex((r) => r.file === file && r.symbol === symbol);
  return at < 0 ? Infinity : at + 1;
}

describe('scope on a real CMake + CTest + GoogleTest build (includes, umbrella headers, macros, crashes)', () => {
  let root: string;
  let groups: Failure[];
  const analyzer = ctest().analyzer!();
  beforeAll(async () => {
    root = await copy('localization');
    await seed(root);
    const result = await run(root);
    expect(result.tests.find((t) => t.id === 'geom_test::First.Empty')!.status).toBe('crashed');
    groups = (await analyzer.analyze(result, project(root))).map((f) => FailureSchema.parse(f));
  }, 600_000);

  it.each(Object.entries(BUGS))(
    'ranks the buggy function in the top 3 behind %s',
    async (_construct, bug) => {
      const group = groups.find((g) => g.tests.includes(bug.test));
      expect(group, `no failure explains ${bug.test}`).toBeDefined();
      const scope = ScopeSchema.parse(await analyzer.scope(group!, project(root)));
      expect(scope.entries.map((e) => e.file)).toContain(bug.file);
      expect(rankOf(scope, bug.file, bug.symbol)).toBeLessThanOrEqual(3);
    },
  );

  it("ranks first the function the debugger's backtrace of a segfault stops in", async (ctx) => {
    requireToolchain(ctx, GDB);
    const group = groups.find((g) => g.tests.includes('geom_test::First.Empty'))!;
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    expect(scope.entries[0]!.ranking![0]).toMatchObject({
      symbol: 'first_or_zero',
      score: 1,
      reason: 'where the failure was raised',
    });
    expect(scope.entries[0]!.reasons).toContain("frame 1 of the debugger's backtrace of the crash");
  });

  it("gives a segfault's evidence its signal, the case that was running and the debugger's backtrace", async (ctx) => {
    requireToolchain(ctx, GDB);
    const group = groups.find((g) => g.tests.includes('geom_test::First.Empty'))!;
    expect(group.kind).toBe('crash');
    expect(group.evidence).toContain('geom_test::First.Empty crashed: Exception: SegFault (SIGSEGV');
    expect(group.evidence).toContain('running the GoogleTest case First.Empty');
    expect(group.evidence).toMatch(
      /#0 first_or_zero at src\/bounds\.cpp:\d+: +if \(count >= 0\) return values\[0\];\n +#1 \w+ at tests\/geom_test\.cpp:/,
    );
    // the cases that passed before it are not evidence of the crash
    expect(group.evidence).not.toContain('Area.Rectangle');
  });

  it('runs a crashed program under the debugger once, until the program is built again', async (ctx) => {
    requireToolchain(ctx, GDB);
    const memo = new CrashBacktraces();
    const first = await crashBacktrace(root, 'build-suture', 'geom_test::First.Empty', memo);
    expect(first?.[0]).toMatchObject({ file: 'src/bounds.cpp', fn: 'first_or_zero' });
    expect(await crashBacktrace(root, 'build-suture', 'geom_test::First.Empty', memo)).toBe(first);
    expect(memo.frames.size).toBe(1);
    const program = join(root, 'build-suture', 'geom_test');
    const later = new Date((await stat(program)).mtimeMs + 60_000);
    await utimes(program, later, later);
    const again = await crashBacktrace(root, 'build-suture', 'geom_test::First.Empty', memo);
    expect(again).not.toBe(first);
    expect(again).toEqual(first);
    expect(memo.frames.size).toBe(2);
  });

  it('puts the header that declares a scope function in the scope, on the header side', async () => {
    const group = groups.find((g) => g.tests.includes('geom_test::Area.Rectangle'))!;
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    expect(scope.entries.find((e) => e.file === 'include/geom/area.h')).toMatchObject({ role: 'header' });
  });
});

describe('the gate heals each construct with a fixer that proposes the true fix', () => {
  it('accepts every true fix as inside its scope', async () => {
    const root = await copy('localization');
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
    const report = await gate(root, {
      mode: 'check',
      fixers: [scriptedFixer(Array(20).fill(trueFix))],
      name: 'geom',
    });
    const failures = report.projects[0]!.failures;
    for (const bug of Object.values(BUGS))
      expect(failures.find((f) => f.failure.tests.includes(bug.test))?.outcome, bug.test).toBe('healed');
    expect(failures.flatMap((f) => f.attempts.map((a) => a.verdict))).not.toContain('refused');
    expect(report.projects[0]!.status).toBe('healed');
    // what the fixer reads of the segfault, after the engine's cleaner took the banners out
    const crash = requests.find((r) => r.failure.tests.includes('geom_test::First.Empty'))!;
    expect(crash.failure.evidence).toContain('crashed: Exception: SegFault (SIGSEGV');
    expect(crash.failure.evidence).toContain('the GoogleTest case First.Empty');
    expect(crash.failure.evidence).toMatch(/Backtrace/);
  }, 900_000);
});

describe('a test stopped at its time limit', () => {
  const HANG: Bug = {
    test: 'geom_test::Steps.Odd',
    file: 'src/bounds.cpp',
    symbol: 'steps_to_zero',
    right: 'while (value > 0) {',
    wrong: 'while (value != 0) {',
  };

  it('is located where the debugger saw it stuck before it was stopped, and healed there', async (ctx) => {
    requireToolchain(ctx, GDB);
    const root = await copy('localization');
    await edit(root, HANG.file, HANG.right, HANG.wrong);
    const result = await run(root, { runner: ctest({ parallel: 2, testTimeoutMs: 3000 }) });
    const hung = result.tests.find((t) => t.id === HANG.test)!;
    expect(hung.status).toBe('timeout');
    expect(hung.trace).toMatch(
      /where the test was when it was stopped at its time limit \(gdb\):\n#0 .*steps_to_zero/,
    );
    const analyzer = ctest().analyzer!();
    const groups = (await analyzer.analyze(result, project(root))).map((f) => FailureSchema.parse(f));
    const group = groups.find((g) => g.tests.includes(HANG.test))!;
    expect(group.kind).toBe('timeout');
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    expect(scope.entries[0]).toMatchObject({ file: HANG.file });
    expect(scope.entries[0]!.reasons).toContain("frame 1 of the debugger's backtrace of the hang");
    expect(rankOf(scope, HANG.file, HANG.symbol)).toBe(1);

    // the same through the gate, the test run in the isolated workspace where this machine has one
    const trueFix = (r: FixRequest) =>
      ({
        verdict: 'edits',
        rationale: `the loop of ${r.failure.tests[0]} never ends for an odd value`,
        edits: [{ file: HANG.file, search: HANG.wrong, replace: HANG.right }],
      }) as const;
    const report = await gate(root, {
      mode: 'check',
      name: 'geom',
      testTimeoutMs: 3000,
      workspace: 'auto',
      sandbox: 'auto',
      fixers: [scriptedFixer([trueFix])],
    });
    const failure = report.projects[0]!.failures.find((f) => f.failure.tests.includes(HANG.test))!;
    expect(failure.outcome).toBe('healed');
    expect(failure.scope?.entries[0]).toMatchObject({ file: HANG.file });
    expect(failure.scope?.entries[0]!.reasons).toContain("frame 1 of the debugger's backtrace of the hang");
  }, 900_000);
});
