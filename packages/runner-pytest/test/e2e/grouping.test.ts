import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureSchema, RunResultSchema, ScopeSchema, type Failure, type RunResult } from '@suture/core';
import { silentLogger } from '@suture/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import pytest from '../../src/index.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

/** A fresh copy of the grocer project with the given bugs seeded: [file, correct text, buggy text]. */
async function seeded(...bugs: Array<[string, string, string]>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'suture-pytest-grouping-'));
  temps.push(root);
  await cp(join(here, 'grouping'), root, { recursive: true });
  for (const [file, from, to] of bugs) {
    const text = await readFile(join(root, file), 'utf8');
    if (!text.includes(from)) throw new Error(`${from} is not in ${file}`);
    await writeFile(join(root, file), text.replace(from, to));
  }
  return root;
}

async function run(root: string): Promise<RunResult> {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-pytest-work-'));
  temps.push(workDir);
  return RunResultSchema.parse(
    await pytest().run({
      root,
      workDir,
      timeoutMs: 60_000,
      signal: new AbortController().signal,
      logger: silentLogger,
    }),
  );
}

const project = (root: string) => ({ name: 'grocer', root, scopeDepth: 3, logger: silentLogger });

async function analyze(root: string): Promise<{ result: RunResult; groups: Failure[] }> {
  const result = await run(root);
  const raw = await pytest().analyzer!().analyze(result, project(root));
  return { result, groups: raw.map((f) => FailureSchema.parse(f)) };
}

const failing = (r: RunResult): string[] =>
  r.tests
    .filter((t) => t.status !== 'passed')
    .map((t) => t.id)
    .sort();

/** Every failing test is explained by exactly one group. */
function explainsEachOnce(result: RunResult, groups: Failure[]): void {
  const explained = groups.flatMap((g) => g.tests).sort();
  expect(explained).toEqual(failing(result));
}

const PRICE_BUG: [string, string, string] = ['grocer/prices.py', 'PRICES[item]', 'PRICES[item.title()]'];
const UNIT_BUG: [string, string, string] = ['grocer/units.py', 'GRAMS[unit]', 'GRAMS[unit.upper()]'];
const OFF_BY_ONE: [string, string, string] = [
  'grocer/units.py',
  'quantity * GRAMS[unit]',
  'quantity * GRAMS[unit] + 1',
];

describe('root-cause grouping on a real pytest run', () => {
  it('makes one group of one bug raised in a function that five tests reach, three of them parametrised cases', async () => {
    const root = await seeded(PRICE_BUG);
    const { result, groups } = await analyze(root);
    expect(failing(result)).toEqual([
      'tests/test_basket.py::test_cheapest',
      'tests/test_basket.py::test_price[apple-0.5]',
      'tests/test_basket.py::test_price[pear-0.75]',
      'tests/test_basket.py::test_price[plum-0.4]',
      'tests/test_basket.py::test_total',
    ]);
    // the cases read KeyError: 'Apple', 'Pear', 'Plum': different values, one cause
    const messages = new Set(result.tests.filter((t) => t.status === 'failed').map((t) => t.message));
    expect(messages.size).toBeGreaterThan(1);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({
      kind: 'exception',
      location: { file: 'grocer/prices.py', symbol: 'price_of' },
    });
    explainsEachOnce(result, groups);
  });

  it('makes two groups of two bugs, though both raise KeyError with a quoted key', async () => {
    const root = await seeded(PRICE_BUG, UNIT_BUG);
    const { result, groups } = await analyze(root);
    expect(failing(result)).toHaveLength(8);
    expect(groups).toHaveLength(2);
    const where = Object.fromEntries(groups.map((g) => [g.location!.symbol!, g.tests.length]));
    expect(where).toEqual({ price_of: 5, to_grams: 3 });
    expect(groups[0]!.fingerprint).not.toBe(groups[1]!.fingerprint);
    explainsEachOnce(result, groups);
  });

  it('keeps the fingerprint of a cause when it is hit by other values and fewer tests', async () => {
    const all = await analyze(await seeded(PRICE_BUG));
    const some = await analyze(
      await seeded(PRICE_BUG, ['tests/test_basket.py', '("apple", 0.5), ("pear", 0.75), ', '']),
    );
    expect(some.groups).toHaveLength(1);
    expect(some.groups[0]!.tests).toHaveLength(3);
    expect(some.groups[0]!.fingerprint).toBe(all.groups[0]!.fingerprint);
  });

  it('makes one group of the assertions of two tests and a parametrised case that all call the buggy function', async () => {
    const root = await seeded(OFF_BY_ONE);
    const { result, groups } = await analyze(root);
    expect(failing(result)).toEqual([
      'tests/test_units.py::test_kilograms',
      'tests/test_units.py::test_units[g-3]',
      'tests/test_units.py::test_units[lb-1360.8]',
    ]);
    // the assertions read `assert 2001 == 2000` and `assert 10 == approx(3)`: other values, other tests
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: 'assertion' });
    // one request carries how each of them failed
    expect(groups[0]!.evidence).toMatch(/The same cause fails 2 more test\(s\):/);
    expect(groups[0]!.evidence).toContain('tests/test_units.py::test_units[lb-1360.8]');
    explainsEachOnce(result, groups);
  });

  it('keeps two bugs in two functions in two groups when both fail assertions (never one group that hides one)', async () => {
    const root = await seeded(OFF_BY_ONE, ['grocer/prices.py', 'PRICES[item]', 'PRICES[item] * 2']);
    const { result, groups } = await analyze(root);
    const units = failing(result).filter((id) => id.includes('test_units.py'));
    const prices = failing(result).filter((id) => id.includes('test_price['));
    expect(units).toHaveLength(3);
    expect(prices).toHaveLength(3);
    // every group holds tests of one bug only, and each bug's direct tests are one group
    for (const g of groups)
      expect(g.tests.some((t) => units.includes(t)) && g.tests.some((t) => !units.includes(t))).toBe(false);
    expect(groups.filter((g) => g.tests.some((t) => units.includes(t))).map((g) => g.tests.length)).toEqual([
      3,
    ]);
    expect(groups.filter((g) => g.tests.some((t) => prices.includes(t))).map((g) => g.tests.length)).toEqual([
      3,
    ]);
    explainsEachOnce(result, groups);
  });

  it('keeps a group apart from one that fails the same way but in a function its line does not call', async () => {
    const one = await analyze(await seeded(OFF_BY_ONE));
    const other = await analyze(await seeded(['grocer/prices.py', 'PRICES[item]', 'PRICES[item] * 2']));
    const fingerprints = new Set(other.groups.map((g) => g.fingerprint));
    expect(fingerprints.has(one.groups[0]!.fingerprint)).toBe(false);
  });

  it('treats conftest.py as a test file and puts its fixture in the scope on the test side', async () => {
    const root = await seeded(PRICE_BUG);
    const { groups } = await analyze(root);
    const analyzer = pytest().analyzer!();
    expect(analyzer.isTestFile!('tests/conftest.py')).toBe(true);
    expect(analyzer.isTestFile!('grocer/prices.py')).toBe(false);
    const scope = ScopeSchema.parse(await analyzer.scope(groups[0]!, project(root)));
    const roles = Object.fromEntries(scope.entries.map((e) => [e.file, e.role]));
    expect(roles['tests/conftest.py']).toBe('fixture');
    expect(roles['tests/test_basket.py']).toBe('test');
    expect(roles['grocer/prices.py']).toBe('source');
    expect(roles['grocer/basket.py']).toBe('source');
  });
});
