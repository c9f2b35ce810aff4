import { describe, expect, it } from 'vitest';
import { nodeKey, walkCodeGraph, type CodeEdge, type CodeNode } from './graph-walk.js';
import { rankScope } from './rank.js';

// test_sort -> sort (lib.py) -> {partition, swap}; partition -> pivot; test_swap -> swap
const graph: Record<string, CodeEdge[]> = {
  'tests/test_lib.py#test_sort': [
    { to: { file: 'lib.py', symbol: 'sort' }, role: 'source', reason: 'test_sort calls sort' },
  ],
  'tests/test_lib.py#test_swap': [
    { to: { file: 'lib.py', symbol: 'swap' }, role: 'source', reason: 'test_swap calls swap' },
  ],
  'lib.py#sort': [
    { to: { file: 'lib.py', symbol: 'swap' }, role: 'source', reason: 'sort calls swap', cost: 0 },
    { to: { file: 'lib.py', symbol: 'partition' }, role: 'source', reason: 'sort calls partition', cost: 0 },
  ],
  'lib.py#partition': [
    { to: { file: 'util.py', symbol: 'pivot' }, role: 'source', reason: 'partition calls pivot' },
  ],
};
const expand = async (n: CodeNode): Promise<CodeEdge[]> => graph[`${n.file}#${n.symbol}`] ?? [];
const test = (symbol: string): CodeEdge => ({
  to: { file: 'tests/test_lib.py', symbol },
  role: 'test',
  reason: `the failing test ${symbol}`,
});
const reach = async (symbol: string): Promise<Set<string>> =>
  new Set((await walkCodeGraph([test(symbol)], { maxDepth: 3, expand })).reached.map((n) => nodeKey(n.node)));
const isTestFile = (f: string): boolean => f.startsWith('tests/');
const order = (entries: ReturnType<typeof rankScope>): string[] =>
  entries.flatMap((e) => (e.ranking ?? []).map((r) => `${e.file}:${r.symbol}`));

describe('rankScope', () => {
  it('puts a frame in the code under test first, innermost first, and the test function below the code', async () => {
    const walk = await walkCodeGraph([test('test_sort')], { maxDepth: 3, expand });
    const entries = rankScope({
      reached: walk.reached,
      frames: [
        { file: 'util.py', symbol: 'pivot' },
        { file: 'lib.py', symbol: 'partition' },
        { file: 'tests/test_lib.py', symbol: 'test_sort' },
      ],
      isTestFile,
    });
    const ranked = entries.flatMap((e) => e.ranking!.map((r) => ({ at: `${e.file}:${r.symbol}`, ...r })));
    ranked.sort((a, b) => b.score - a.score);
    expect(ranked.slice(0, 2).map((r) => r.at)).toEqual(['util.py:pivot', 'lib.py:partition']);
    expect(ranked[0]).toMatchObject({ score: 1, reason: 'where the failure was raised' });
    expect(ranked[1]!.reason).toBe('frame 2 of the trace');
    expect(ranked.at(-1)!.at).toBe('tests/test_lib.py:test_sort');
    // entries best first, each scored by its best function
    expect(entries.map((e) => e.file)).toEqual(['util.py', 'lib.py', 'tests/test_lib.py']);
    expect(entries[0]!.score).toBe(1);
    expect(entries.find((e) => e.file === 'tests/test_lib.py')!.role).toBe('test');
  });

  it('ranks what the failing tests reach and the passing ones do not above what both reach', async () => {
    const walk = await walkCodeGraph([test('test_sort')], { maxDepth: 3, expand });
    const entries = rankScope({
      reached: walk.reached,
      frames: [{ file: 'tests/test_lib.py', symbol: 'test_sort' }],
      failingReach: [await reach('test_sort')],
      passingReach: [await reach('test_swap')],
      isTestFile,
    });
    const lib = entries.find((e) => e.file === 'lib.py')!;
    const score = (s: string): number => lib.ranking!.find((r) => r.symbol === s)!.score;
    expect(score('partition')).toBeGreaterThan(score('swap'));
    expect(lib.ranking!.find((r) => r.symbol === 'partition')!.reason).toMatch(
      /reached by the failing tests and by none of 1 passing tests/,
    );
  });

  it('ranks the callees of the failing line, and theirs, above other functions at the same distance', async () => {
    const walk = await walkCodeGraph([test('test_sort')], { maxDepth: 3, expand });
    const base = { reached: walk.reached, frames: [], isTestFile };
    const none = order(rankScope(base));
    const hit = rankScope({ ...base, onFailingLine: [{ file: 'lib.py', symbol: 'partition' }] });
    expect(none.indexOf('lib.py:partition')).toBeGreaterThan(none.indexOf('lib.py:sort'));
    expect(order(hit)[0]).toBe('lib.py:partition');
    const pivot = hit.find((e) => e.file === 'util.py')!.ranking![0]!;
    const swap = hit.find((e) => e.file === 'lib.py')!.ranking!.find((r) => r.symbol === 'swap')!;
    expect(pivot.reason).toBe('called by a function the failing line calls');
    expect(pivot.score).toBeGreaterThan(swap.score);
  });

  it('carries definition lines and keeps extra entries unranked after the ranked ones', async () => {
    const walk = await walkCodeGraph([test('test_sort')], { maxDepth: 0, expand });
    const entries = rankScope({
      reached: walk.reached,
      frames: [],
      isTestFile,
      lines: (n) => (n.symbol === 'test_sort' ? { line: 4, endLine: 9 } : undefined),
      extra: [{ file: 'CMakeLists.txt', symbols: [], role: 'config', reasons: ['a', 'a', 'b'], depth: 0 }],
    });
    expect(entries[0]!.ranking).toEqual([
      {
        symbol: 'test_sort',
        score: expect.any(Number),
        reason: 'the failing test test_sort',
        line: 4,
        endLine: 9,
      },
    ]);
    expect(entries[1]).toEqual({
      file: 'CMakeLists.txt',
      symbols: [],
      role: 'config',
      reasons: ['a', 'b'],
      depth: 0,
    });
  });

  it('with a trace, ranks what the failing tests ran and the passing ones did not above what both ran, and adds what the walk missed', async () => {
    const walk = await walkCodeGraph([test('test_sort')], { maxDepth: 3, expand });
    const k = (file: string, symbol: string): string => nodeKey({ file, symbol });
    const entries = rankScope({
      reached: walk.reached,
      frames: [{ file: 'util.py', symbol: 'pivot' }],
      executed: {
        failing: [
          new Set([
            k('lib.py', 'sort'),
            k('lib.py', 'swap'),
            k('util.py', 'pivot'),
            k('lib.py', 'partition'),
            k('lib.py', '__eq__'),
          ]),
        ],
        passing: [
          new Set([k('lib.py', 'sort'), k('util.py', 'pivot'), k('lib.py', 'partition')]),
          new Set([k('lib.py', 'sort'), k('util.py', 'pivot'), k('lib.py', 'partition')]),
        ],
      },
      isTestFile,
    });
    const all = entries
      .flatMap((e) => (e.ranking ?? []).map((r) => ({ at: `${e.file}:${r.symbol}`, ...r })))
      .sort((a, b) => b.score - a.score);
    const at = (name: string): number => all.findIndex((r) => r.at === name);
    // the frame first, then what only the failing test ran, then what every test ran
    expect(all[0]!.at).toBe('util.py:pivot');
    expect(at('lib.py:swap')).toBe(1);
    expect(all[1]!.reason).toBe('run by 1 of 1 failing tests and 0 of 2 passing tests');
    expect(at('lib.py:swap')).toBeLessThan(at('lib.py:partition'));
    expect(at('lib.py:swap')).toBeLessThan(at('lib.py:sort'));
    // run by the failing test, never reached by the walk (an operator): in the scope, above what every test ran
    expect(at('lib.py:__eq__')).toBeGreaterThan(0);
    expect(at('lib.py:__eq__')).toBeLessThan(at('lib.py:sort'));
  });
  it('with a trace of many runs, lets the spectrum outweigh an outer frame every passing run went through', () => {
    const k = (symbol: string): string => nodeKey({ file: 'parser.py', symbol });
    const reached = ['loads', 'parse_pair', 'parse_str', 'parse_int'].map((symbol, i) => ({
      node: { file: 'parser.py', symbol },
      role: 'source' as const,
      depth: 0,
      distance: i + 1,
      reasons: ['reached'],
    }));
    const rank = (failed: number, passed: number): string[] => {
      // the failing runs all parsed a string, one passing run did
      const failing = Array.from(
        { length: failed },
        () => new Set([k('loads'), k('parse_pair'), k('parse_str')]),
      );
      const passing = Array.from(
        { length: passed },
        (_, i) => new Set([k('loads'), k('parse_pair'), k(i === 0 ? 'parse_str' : 'parse_int')]),
      );
      return order(
        rankScope({
          reached,
          frames: [
            { file: 'parser.py', symbol: 'parse_pair' },
            { file: 'parser.py', symbol: 'loads' },
          ],
          onFailingLine: [{ file: 'parser.py', symbol: 'loads' }],
          executed: { failing, passing },
          isTestFile,
        }),
      );
    };
    // from four runs the frames lead; from a hundred subtests the function the failing ones ran
    expect(rank(1, 3).slice(0, 2).sort()).toEqual(['parser.py:loads', 'parser.py:parse_pair']);
    expect(rank(20, 80)[0]).toBe('parser.py:parse_str');
  });

  it('ranks the failing test below every function under test when the spectrum says little', () => {
    const k = (n: CodeNode): string => nodeKey(n);
    const failed = { file: 'tests/test_parser.py', symbol: 'test_error' };
    const code = ['loads', 'parse_pair', 'skip', 'parse_float'].map((symbol) => ({
      file: 'parser.py',
      symbol,
    }));
    const reached = [failed, ...code].map((node, i) => ({
      node,
      role: isTestFile(node.file) ? ('test' as const) : ('source' as const),
      depth: 0,
      distance: i,
      reasons: ['reached'],
    }));
    // one failing test against 200 passing ones that ran the same code: every Ochiai score is low
    const all = new Set([failed, ...code].map(k));
    const entries = rankScope({
      reached,
      frames: [failed],
      onFailingLine: [code[0]!],
      executed: { failing: [all], passing: Array.from({ length: 200 }, () => new Set(code.map(k))) },
      isTestFile,
    });
    const ranked = entries
      .flatMap((e) => e.ranking!.map((r) => ({ at: `${e.file}:${r.symbol}`, score: r.score })))
      .sort((a, b) => b.score - a.score);
    expect(ranked.at(-1)).toMatchObject({ at: 'tests/test_parser.py:test_error' });
    expect(ranked.at(-1)!.score).toBeLessThan(Math.min(...ranked.slice(0, -1).map((r) => r.score)));
    expect(ranked.find((r) => r.at === 'parser.py:parse_float')!.score).toBeGreaterThan(0);
  });

  it("counts a function as the failing line's callee's callee through any caller, not only the first", async () => {
    // test_sort -> sort -> swap; test_sort's failing line calls check, which calls swap too
    const edges: Record<string, CodeEdge[]> = {
      'tests/test_lib.py#test_sort': [
        { to: { file: 'lib.py', symbol: 'sort' }, role: 'source', reason: 'calls sort' },
        { to: { file: 'lib.py', symbol: 'check' }, role: 'source', reason: 'calls check' },
      ],
      'lib.py#sort': [
        { to: { file: 'lib.py', symbol: 'swap' }, role: 'source', reason: 'sort calls swap', cost: 0 },
      ],
      'lib.py#check': [
        { to: { file: 'lib.py', symbol: 'swap' }, role: 'source', reason: 'check calls swap', cost: 0 },
      ],
    };
    const walk = await walkCodeGraph([test('test_sort')], {
      maxDepth: 3,
      expand: async (n) => edges[`${n.file}#${n.symbol}`] ?? [],
    });
    expect(walk.reached.find((n) => n.node.symbol === 'swap')!.parent).toBe(
      nodeKey({ file: 'lib.py', symbol: 'sort' }),
    );
    const entries = rankScope({
      reached: walk.reached,
      frames: [],
      onFailingLine: [{ file: 'lib.py', symbol: 'check' }],
      isTestFile,
    });
    const swap = entries.flatMap((e) => e.ranking ?? []).find((r) => r.symbol === 'swap')!;
    expect(swap.reason).toBe('called by a function the failing line calls');
  });
});
