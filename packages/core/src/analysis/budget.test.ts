import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FailureSchema, ScopeSchema, type ScopeInput } from '../api/contracts/failure.js';
import { sourceSlices } from '../engine/fix-request.js';
import { rankedSlices, rankedSources } from './budget.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'suture-budget-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** `n` small functions, each 4 lines, so function k spans lines 4k+1..4k+3. */
const functions = (prefix: string, n: number): string =>
  Array.from(
    { length: n },
    (_, i) => `def ${prefix}${i}(x):\n    # ${'pad '.repeat(20)}\n    return x + ${i}\n`,
  ).join('\n');

const failure = FailureSchema.parse({
  id: 'p:x',
  kind: 'assertion',
  title: 't',
  tests: ['tests/test_m.py::test_it'],
  location: { file: 'tests/test_m.py', line: 3, symbol: 'test_it' },
  evidence: 'e',
  fingerprint: 'x',
  repairable: true,
});

describe('rankedSlices', () => {
  it('spends the budget in rank order on functions: the buggy function of the fifth file is sent', async () => {
    const files = ['a.py', 'b.py', 'c.py', 'd.py', 'e.py'];
    for (const f of files) await writeFile(join(root, f), functions(f[0]!, 200));
    await mkdir(join(root, 'tests'));
    await writeFile(join(root, 'tests/test_m.py'), 'def test_it():\n    x = 1\n    assert e150(x) == 151\n');
    // the walk met the files in this order; the ranking says the bug is likeliest in e.py:e150
    const scope: ScopeInput = {
      entries: [
        {
          file: 'tests/test_m.py',
          role: 'test',
          reasons: ['the failing test'],
          score: 0.1,
          ranking: [{ symbol: 'test_it', score: 0.1, reason: 'the failing test', line: 1, endLine: 3 }],
        },
        ...files.slice(0, 4).map((file, i) => ({
          file,
          role: 'source' as const,
          reasons: ['imported'],
          score: 0.3 - i / 100,
          ranking: [{ symbol: `${file[0]}0`, score: 0.3 - i / 100, reason: 'reached', line: 1, endLine: 3 }],
        })),
        {
          file: 'e.py',
          role: 'source',
          reasons: ['called on the failing line'],
          score: 0.9,
          ranking: [
            { symbol: 'e150', score: 0.9, reason: 'called on the failing line', line: 601, endLine: 603 },
          ],
        },
      ],
    };
    const parsed = ScopeSchema.parse(scope);
    // 5 files of 20 kB: a whole-file budget would spend 12 kB on a.py and never reach e.py
    const slices = await rankedSlices(root, failure, parsed, 12_000);
    expect(slices[0]).toMatchObject({ file: 'tests/test_m.py', startLine: 1 });
    expect(slices[0]!.text).toContain('assert e150(x) == 151');
    expect(slices[1]).toMatchObject({
      file: 'e.py',
      startLine: 601,
      endLine: 603,
      reason: 'called on the failing line',
    });
    expect(slices[1]!.text).toContain('def e150(x):');
    expect(slices.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(12_000);
    // the engine's source slices take the same path for a ranked scope
    expect(await sourceSlices(root, failure, scope, 3000)).toEqual(slices);
  });

  it('makes small files whole with the budget left, and cuts a long function around the failing line', async () => {
    await writeFile(join(root, 'small.py'), 'def f():\n    return 1\n\n\ndef g():\n    return 2\n');
    const long = [
      'def big(x):',
      ...Array.from({ length: 400 }, (_, i) => `    x = x + ${i}  # ${'pad '.repeat(10)}`),
      '    return x',
    ];
    await writeFile(join(root, 'big.py'), `${long.join('\n')}\n`);
    const atBig = FailureSchema.parse({ ...failure, location: { file: 'big.py', line: 300, symbol: 'big' } });
    const slices = await rankedSlices(
      root,
      atBig,
      ScopeSchema.parse({
        entries: [
          {
            file: 'big.py',
            role: 'source',
            reasons: ['r'],
            score: 1,
            ranking: [
              { symbol: 'big', score: 1, reason: 'where the failure was raised', line: 1, endLine: 402 },
            ],
          },
          {
            file: 'small.py',
            role: 'source',
            reasons: ['r'],
            score: 0.5,
            ranking: [{ symbol: 'g', score: 0.5, reason: 'reached', line: 5, endLine: 6 }],
          },
        ],
      }),
      40_000,
    );
    const big = slices.find((s) => s.file === 'big.py')!;
    expect(big.startLine).toBeGreaterThan(1);
    expect(big.startLine).toBeLessThan(300);
    expect(big.endLine).toBeGreaterThan(300);
    expect(big.text.length).toBeLessThanOrEqual(6000);
    expect(slices.find((s) => s.file === 'small.py')).toMatchObject({ startLine: 1, endLine: 7 });
  });

  it('sends unranked entries after ranked ones, and never a reason longer than 200 characters', async () => {
    await writeFile(join(root, 'a.py'), 'def a():\n    return 1\n');
    await writeFile(join(root, 'b.py'), 'def b():\n    return 2\n');
    const slices = await rankedSlices(
      root,
      failure,
      ScopeSchema.parse({
        entries: [
          { file: 'a.py', role: 'source', reasons: ['x'.repeat(900)] },
          {
            file: 'b.py',
            role: 'source',
            reasons: ['r'],
            score: 0.2,
            ranking: [{ symbol: 'b', score: 0.2, reason: 'y'.repeat(199), line: 1, endLine: 2 }],
          },
        ],
      }),
      10_000,
    );
    expect(slices.map((s) => s.file)).toEqual(['b.py', 'a.py']);
    expect(Math.max(...slices.map((s) => s.reason.length))).toBeLessThanOrEqual(200);
  });
});

describe('rankedSources', () => {
  /** A function of `n` lines, each about 60 characters, the bug on line `bug` of the file. */
  const longFunction = (name: string, n: number, bug: number): string =>
    [
      `def ${name}(x):`,
      ...Array.from({ length: n }, (_, i) =>
        i + 2 === bug ? '    x = x - 1  # the bug' : `    x = x + ${i}  # ${'pad '.repeat(12)}`,
      ),
      '    return x',
    ].join('\n');
  const raisedIn = (file: string, line: number, symbol: string) =>
    FailureSchema.parse({
      ...failure,
      kind: 'exception',
      frames: [{ file, line, symbol }],
    });
  const scopeOf = (
    ...ranked: Array<{ file: string; symbol: string; score: number; line: number; endLine: number }>
  ) =>
    ScopeSchema.parse({
      entries: [...new Set(ranked.map((r) => r.file))].map((file) => ({
        file,
        role: 'source',
        reasons: ['r'],
        score: Math.max(...ranked.filter((r) => r.file === file).map((r) => r.score)),
        ranking: ranked
          .filter((r) => r.file === file)
          .map(({ symbol, score, line, endLine }) => ({
            symbol,
            score,
            reason: `rank ${score}`,
            line,
            endLine,
          })),
      })),
    });

  it('cuts a function longer than the budget around the line the failure went through, marks it, and says what it cut', async () => {
    // 200 lines of 60 characters (12 kB) in a 4 kB budget; the trace stopped at line 170
    await writeFile(join(root, 'big.py'), `${longFunction('big', 200, 170)}\n`);
    const result = await rankedSources(
      root,
      raisedIn('big.py', 170, 'big'),
      scopeOf({ file: 'big.py', symbol: 'big', score: 1, line: 1, endLine: 202 }),
      4000,
    );
    const big = result.slices.find((s) => s.file === 'big.py')!;
    expect(big.text).toContain('x = x - 1  # the bug');
    expect(big.startLine).toBeGreaterThan(1);
    expect(big.marked).toEqual([170]);
    expect(result.slices.reduce((n, s) => n + s.text.length, 0)).toBeLessThanOrEqual(4000);
    expect(result.omitted).toEqual([
      expect.objectContaining({ file: 'big.py', symbol: 'big', startLine: 1, endLine: 202 }),
    ]);
    expect(result.omitted[0]!.reason).toMatch(
      new RegExp(`lines ${big.startLine}-${big.endLine} of it are sent`),
    );
  });

  it('sends the top-ranked functions whole before lower ones and names what the budget left out, best first', async () => {
    // three 30-line functions (about 2 kB each) in one 6 kB file, ranked c, a, b; 4.4 kB of budget
    const text = ['a', 'b', 'c'].map((n) => longFunction(n, 30, 0)).join('\n\n');
    await writeFile(join(root, 'm.py'), `${text}\n`);
    const result = await rankedSources(
      root,
      failure,
      scopeOf(
        { file: 'm.py', symbol: 'a', score: 0.8, line: 1, endLine: 32 },
        { file: 'm.py', symbol: 'b', score: 0.2, line: 34, endLine: 65 },
        { file: 'm.py', symbol: 'c', score: 0.9, line: 67, endLine: 98 },
      ),
      4400,
    );
    const sent = (line: number) => result.slices.some((s) => s.startLine <= line && line <= s.endLine);
    // c and a whole, b not at all: never the head of the file instead of the likeliest function
    expect([1, 32, 67, 98].every(sent)).toBe(true);
    expect(sent(50)).toBe(false);
    expect(result.omitted.map((o) => o.symbol)).toEqual(['b']);
    expect(result.omitted[0]!.reason).toMatch(/budget/);
  });

  it('marks only lines inside a slice, and names nothing as left out that a whole file sent after all', async () => {
    await writeFile(join(root, 'small.py'), 'def f():\n    return 1\n\n\ndef g():\n    return 2\n');
    // a frame line past the end of the file (a stale trace) and one inside f
    const stale = FailureSchema.parse({
      ...failure,
      frames: [
        { file: 'small.py', line: 2, symbol: 'f' },
        { file: 'small.py', line: 900, symbol: 'f' },
      ],
    });
    const result = await rankedSources(
      root,
      stale,
      scopeOf(
        { file: 'small.py', symbol: 'f', score: 0.9, line: 1, endLine: 2 },
        // a ranking whose lines lie beyond the end of the file: nothing sent past it, no error
        { file: 'small.py', symbol: 'ghost', score: 0.5, line: 500, endLine: 600 },
      ),
      4000,
    );
    expect(result.slices).toEqual([
      expect.objectContaining({ file: 'small.py', startLine: 1, endLine: 7, marked: [2] }),
    ]);
    expect(result.omitted.find((o) => o.symbol === 'f')).toBeUndefined();
  });
});
