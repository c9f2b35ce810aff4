import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  FailureSchema,
  HealConfigSchema,
  ScopeSchema,
  type Failure,
  type FixRequest,
  type Scope,
} from '@suture/core';
import { runGate } from '@suture/core/internal';
import { scriptedFixer, silentLogger } from '@suture/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

interface Bug {
  /** A failing test the bug shows in (the failure is found by the file it is located in for a suite error). */
  test: string;
  file: string;
  /** The function that holds the bug: the ground truth the scope must rank. */
  symbol: string;
  right: string;
  wrong: string;
}

/** One bug behind each construct a JS/TS scope must see through. */
const BUGS: Record<string, Bug> = {
  "export * from './shapes' in an index module": {
    test: 'tests/star.test.ts::area of a rectangle',
    file: 'src/shapes.ts',
    symbol: 'area',
    right: 'return width * height;',
    wrong: 'return width + height;',
  },
  "a renamed re-export (export { scale as scaleBy } from './transform')": {
    test: 'tests/star.test.ts::scales points',
    file: 'src/transform.ts',
    symbol: 'scale',
    right: '[x * factor, y * factor]',
    wrong: '[x * factor, y + factor]',
  },
  'CommonJS module.exports = { clamp, limits }': {
    test: 'tests/commonjs.test.ts::clamps above',
    file: 'src/legacy.js',
    symbol: 'clamp',
    right: 'if (value > high) return high;',
    wrong: 'if (value > high) return low;',
  },
  'CommonJS exports.toCm = function': {
    test: 'tests/commonjs.test.ts::inches to centimetres',
    file: 'src/units.js',
    symbol: 'toCm',
    right: 'inches * 254',
    wrong: 'inches * 245',
  },
  "Jest's moduleNameMapper (@geo/shapes)": {
    test: 'tests/aliases.test.ts::perimeter of a rectangle',
    file: 'src/shapes.ts',
    symbol: 'perimeter',
    right: 'return 2 * (width + height);',
    wrong: 'return 2 * width + height;',
  },
  "tsconfig's paths inherited through extends (~lib/range)": {
    test: 'tests/paths.test.ts::span of values',
    file: 'src/lib/range.ts',
    symbol: 'span',
    right: 'return Math.max(...values) - Math.min(...values);',
    wrong: 'return Math.max(...values) + Math.min(...values);',
  },
  'an object built in beforeEach whose methods a factory method returns': {
    test: 'tests/counter.test.ts::Counter counts what was added',
    file: 'src/counter.ts',
    symbol: 'Counter.createStore',
    right: 'cells.set(key, (cells.get(key) ?? 0) + 1);',
    wrong: 'cells.set(key, (cells.get(key) ?? 0) + 2);',
  },
  "tsconfig's baseUrl (lib/stats)": {
    test: 'tests/aliases.test.ts::mean of values',
    file: 'src/lib/stats.ts',
    symbol: 'mean',
    right: 'return total / values.length;',
    wrong: 'return total / (values.length + 1);',
  },
  'a test whose title another suite repeats, in a file compiled with no source map': {
    test: 'tests/titles.test.ts::discount applies the rate',
    file: 'src/pricing.ts',
    symbol: 'discount',
    right: 'return price * (1 - rate);',
    wrong: 'return price - rate;',
  },
  "a helper declared in the test's suite, of a name another suite declares too": {
    test: 'tests/suites.test.ts::reserve takes the amount',
    file: 'src/inventory.ts',
    symbol: 'reserve',
    right: 'return count - amount;',
    wrong: 'return count - amount - 1;',
  },
};

/** A syntax error in a source file the test imports: located in the source, not the test. */
const SYNTAX: Bug = {
  test: 'tests/format.test.ts',
  file: 'src/format.js',
  symbol: 'label',
  right: "return 'n=' + n;",
  wrong: "return 'n=' +* n;",
};

async function seed(root: string): Promise<void> {
  for (const bug of [...Object.values(BUGS), SYNTAX]) {
    const text = await readFile(join(root, bug.file), 'utf8');
    if (!text.includes(bug.right)) throw new Error(`${bug.right} is not in ${bug.file}`);
    await writeFile(join(root, bug.file), text.replace(bug.right, bug.wrong));
  }
}

const explains = (f: Failure, bug: Bug): boolean =>
  f.tests.includes(bug.test) || (f.tests.length === 0 && f.diagnostics.some((d) => d.file === bug.test));

/** 1-based rank of a function in a scope's ranking across files, or Infinity when it is not in it. */
function rankOf(scope: Scope, file: string, symbol: string): number {
  const ranked = scope.entries
    .flatMap((e) => (e.ranking ?? []).map((r) => ({ file: e.file, ...r })))
    .sort((a, b) => b.score - a.score);
  const at = ranked.findIndex((r) => r.file === file && r.symbol === symbol);
  return at < 0 ? Infinity : at + 1;
}

describe('scope on a real Jest run (export *, re-exports, CommonJS, moduleNameMapper, tsconfig paths, hooks)', () => {
  let root: string;
  let groups: Failure[];
  const analyzer = jest().analyzer!();
  beforeAll(async () => {
    root = await copy('localization');
    await seed(root);
    const result = await run(root);
    groups = (await analyzer.analyze(result, project(root))).map((f) =>
      FailureSchema.parse({ ...f, id: f.fingerprint }),
    );
  }, 300_000);

  it.each(Object.entries(BUGS))(
    'ranks the buggy function in the top 3 behind %s',
    async (_construct, bug) => {
      const group = groups.find((g) => explains(g, bug));
      expect(group, `no failure explains ${bug.test}`).toBeDefined();
      const scope = ScopeSchema.parse(await analyzer.scope(group!, project(root)));
      expect(scope.entries.map((e) => e.file)).toContain(bug.file);
      expect(rankOf(scope, bug.file, bug.symbol)).toBeLessThanOrEqual(3);
    },
  );

  it('places a failure whose printed line is not in its file (no source map) at its own test, told from a test of the same title', async () => {
    const bug = BUGS['a test whose title another suite repeats, in a file compiled with no source map']!;
    const group = groups.find((g) => explains(g, bug))!;
    // Jest prints line 11 (the other suite's test) at column 52, past that line's end
    expect(group.evidence).toMatch(/titles\.test\.ts:11:52/);
    expect(group.location).toEqual({
      file: 'tests/titles.test.ts',
      line: 15,
      symbol: 'discount applies the rate',
    });
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    const test = scope.entries.find((e) => e.file === 'tests/titles.test.ts')!;
    expect(test.symbols).toContain('discount > applies the rate');
    expect(test.symbols).not.toContain('tax > applies the rate');
    expect(rankOf(scope, 'src/pricing.ts', 'discount')).toBe(1);
  });

  it("follows a test into its own suite's helper, and into the method of a class its suite declares", async () => {
    const bug = BUGS["a helper declared in the test's suite, of a name another suite declares too"]!;
    const scope = ScopeSchema.parse(
      await analyzer.scope(
        groups.find((g) => explains(g, bug))!,
        project(root),
      ),
    );
    const tests = scope.entries.find((e) => e.file === 'tests/suites.test.ts')!;
    expect(tests.symbols).toContain('reserve > stocked');
    expect(tests.symbols).not.toContain('restock > stocked');
    expect(rankOf(scope, 'src/inventory.ts', 'reserve')).toBe(1);
    expect(rankOf(scope, 'src/inventory.ts', 'restock')).toBe(Infinity);

    const shelf = groups.find((g) => g.tests.includes('tests/suites.test.ts::shelf gives what is left'))!;
    const viaClass = ScopeSchema.parse(await analyzer.scope(shelf, project(root)));
    expect(viaClass.entries.find((e) => e.file === 'tests/suites.test.ts')!.symbols).toContain(
      'shelf > Shelf.take',
    );
    expect(rankOf(viaClass, 'src/inventory.ts', 'reserve')).toBeLessThanOrEqual(3);
  });

  it("locates a syntax error in the source the test imports, at its line and column, without Jest's advice", async () => {
    const group = groups.find((g) => explains(g, SYNTAX))!;
    expect(group).toMatchObject({ kind: 'syntax', location: { file: 'src/format.js', line: 2, column: 16 } });
    expect(group.evidence).toContain("return 'n=' +* n;");
    expect(group.evidence).not.toMatch(/Jest failed to parse a file|node_modules\/@babel/);
    const scope = ScopeSchema.parse(await analyzer.scope(group, project(root)));
    expect(scope.entries[0]).toMatchObject({ file: 'src/format.js', score: 1 });
    expect(scope.entries.find((e) => e.file === 'tests/format.test.ts')).toMatchObject({ role: 'test' });
  });
});

describe('the gate heals each construct with a fixer that proposes the true fix', () => {
  it('accepts every true fix as inside its scope', async () => {
    const root = await copy('localization');
    await seed(root);
    const bugs = [...Object.values(BUGS), SYNTAX];
    const trueFix = (r: FixRequest) => {
      const bug = bugs.find((b) => explains(r.failure, b));
      if (!bug)
        return { verdict: 'unfixable', diagnosis: `not scripted: ${r.failure.tests.join(', ')}` } as const;
      return {
        verdict: 'edits',
        rationale: 'the true fix',
        edits: [{ file: bug.file, search: bug.wrong, replace: bug.right }],
      } as const;
    };
    const report = await runGate({
      root,
      outputDir: join(root, '.suture/runs'),
      mode: 'check',
      projects: [
        {
          name: 'geo',
          root,
          runner: jest(),
          analyzer: jest().analyzer!(),
          timeoutMs: 300_000,
          heal: HealConfigSchema.parse({ flakyReruns: 0 }),
        },
      ],
      fixers: [scriptedFixer(Array(30).fill(trueFix))],
      reporters: [],
      concurrency: 1,
      logger: silentLogger,
    });
    const failures = report.projects[0]!.failures;
    for (const bug of bugs)
      expect(failures.find((f) => explains(f.failure, bug))?.outcome, bug.test).toBe('healed');
    expect(failures.flatMap((f) => f.attempts.map((a) => a.verdict))).not.toContain('refused');
    expect(report.projects[0]!.status).toBe('healed');
  }, 900_000);
});
