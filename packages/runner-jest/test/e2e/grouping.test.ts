import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FailureSchema, ScopeSchema, type Failure, type RunResult } from '@suture/core';
import { afterAll, describe, expect, it } from 'vitest';
import jest from '../../src/index.js';
import { cleanup, copy, project, run } from './support.js';

afterAll(cleanup);

/** A fresh copy of the grouping project with the given bugs seeded: [file, correct text, buggy text]. */
async function seeded(...bugs: Array<[string, string, string]>): Promise<string> {
  const root = await copy('grouping');
  for (const [file, from, to] of bugs) {
    const text = await readFile(join(root, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
    await writeFile(join(root, file), text.replace(from, to));
  }
  return root;
}

async function analyze(root: string): Promise<{ result: RunResult; groups: Failure[] }> {
  const result = await run(root);
  const raw = await jest().analyzer!().analyze(result, project(root));
  return { result, groups: raw.map((f) => FailureSchema.parse(f)) };
}

const failing = (r: RunResult): string[] =>
  r.tests
    .filter((t) => t.status !== 'passed' && t.status !== 'skipped')
    .map((t) => t.id)
    .sort();

/** Every failing test is explained by exactly one group. */
function explainsEachOnce(result: RunResult, groups: Failure[]): void {
  expect(groups.flatMap((g) => g.tests).sort()).toEqual(failing(result));
}

const UNIT_BUG: [string, string, string] = ['src/units.js', 'GRAMS[unit]', 'GRAMS[unit.toUpperCase()]'];
const OFF_BY_ONE: [string, string, string] = [
  'src/units.js',
  'quantity * factorOf(unit)',
  'quantity * factorOf(unit) + 1',
];
const LIMIT_BUG: [string, string, string] = ['src/text.js', 'LIMITS[kind]', 'LIMITS[kind.toUpperCase()]'];

describe('root-cause grouping on a real Jest run', () => {
  it('makes one group of one bug thrown in a function that seven tests reach, three of them test.each cases', async () => {
    const { result, groups } = await analyze(await seeded(UNIT_BUG));
    expect(failing(result)).toEqual([
      '__tests__/parse.test.js::parses grams',
      '__tests__/parse.test.js::parses pounds',
      '__tests__/units.test.js::weights converts 1 g',
      '__tests__/units.test.js::weights converts 2 kg',
      '__tests__/units.test.js::weights converts 3 lb',
      '__tests__/units.test.js::weights converts kilograms',
      '__tests__/units.test.js::weights parses a weight',
    ]);
    // no entry for "G", "KG", "LB": different values, one cause
    expect(new Set(result.tests.map((t) => t.message).filter(Boolean)).size).toBeGreaterThan(1);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      kind: 'exception',
      location: { file: 'src/units.js', symbol: 'factorOf' },
    });
    explainsEachOnce(result, groups);
  });

  it('makes two groups of two bugs, though both throw RangeError with the same message', async () => {
    const { result, groups } = await analyze(await seeded(UNIT_BUG, LIMIT_BUG));
    expect(failing(result)).toHaveLength(10);
    expect(groups).toHaveLength(2);
    const where = Object.fromEntries(groups.map((g) => [g.location!.symbol!, g.tests.length]));
    expect(where).toEqual({ factorOf: 7, limitOf: 3 });
    explainsEachOnce(result, groups);
  });

  it('makes one group of the assertions that call the same function on their failing line: across tests, test.each cases and a shared helper', async () => {
    const { result, groups } = await analyze(await seeded(OFF_BY_ONE));
    expect(failing(result)).toHaveLength(7);
    const byTests = groups.map((g) => [g.kind, g.tests.slice().sort()]).sort();
    expect(byTests).toEqual([
      // their failing lines call parseWeight: a test, and a shared helper two tests call
      [
        'assertion',
        [
          '__tests__/parse.test.js::parses grams',
          '__tests__/parse.test.js::parses pounds',
          '__tests__/units.test.js::weights parses a weight',
        ],
      ],
      // their failing lines call toGrams: a test and three test.each cases
      [
        'assertion',
        [
          '__tests__/units.test.js::weights converts 1 g',
          '__tests__/units.test.js::weights converts 2 kg',
          '__tests__/units.test.js::weights converts 3 lb',
          '__tests__/units.test.js::weights converts kilograms',
        ],
      ],
    ]);
    const toGrams = groups.find((g) => g.tests.length === 4)!;
    expect(toGrams.evidence).toMatch(/The same cause fails 3 more test\(s\):/);
    explainsEachOnce(result, groups);
  });

  it('keeps two bugs in two functions in two groups when both fail assertions (never one group that hides one)', async () => {
    const { result, groups } = await analyze(
      await seeded(OFF_BY_ONE, [
        'src/text.js',
        'text.slice(0, limitOf(kind))',
        'text.slice(0, limitOf(kind) + 1)',
      ]),
    );
    const text = failing(result).filter((id) => id.startsWith('__tests__/text.test.js'));
    expect(text).toHaveLength(3);
    for (const g of groups)
      expect(g.tests.some((t) => text.includes(t)) && g.tests.some((t) => !text.includes(t))).toBe(false);
    expect(groups.filter((g) => g.tests.some((t) => text.includes(t))).map((g) => g.tests.length)).toEqual([
      3,
    ]);
    explainsEachOnce(result, groups);
  });

  it('scopes a group from the test.each callback its frame names to the code it calls', async () => {
    const root = await seeded(OFF_BY_ONE);
    const { groups } = await analyze(root);
    const cases = groups.find((g) => g.tests.length === 4)!;
    const analyzer = jest().analyzer!();
    const scope = ScopeSchema.parse(await analyzer.scope(cases, project(root)));
    const roles = Object.fromEntries(scope.entries.map((e) => [e.file, e.role]));
    expect(roles).toMatchObject({ '__tests__/units.test.js': 'test', 'src/units.js': 'source' });
    expect(scope.entries.find((e) => e.file === 'src/units.js')!.symbols).toContain('toGrams');
    expect(analyzer.isTestFile!('__tests__/units.test.js')).toBe(true);
    expect(analyzer.isTestFile!('src/units.js')).toBe(false);
  });
});
