import { FailureSchema, ScopeSchema, type Failure, type RunResult } from '@suture/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ctest from '../../src/index.js';
import { cleanup, copy, edit, project, run } from './support.js';

afterAll(cleanup);

// a guard that rejects every valid bucket: each call of bucket_of stops the program at its assert()
const GUARD_BUG = ['src/histogram.cpp', 'bucket < buckets &&', 'bucket > buckets &&'] as const;
// a wrong result: GoogleTest's EXPECT_EQ fails in each TEST_P case, with that case's values
const SCALE_BUG = ['src/histogram.cpp', 'return value * factor;', 'return value * factor + 1;'] as const;
// another wrong result, in another function: the counts
const COUNT_BUG = [
  'src/histogram.cpp',
  'counts[bucket_of(v, width, buckets)]++;',
  'counts[bucket_of(v, width, buckets)] += 2;',
] as const;
const SCALE_TESTS = [
  'Factors/Scaled.Multiplies/(2, 3)',
  'Factors/Scaled.Multiplies/(4, 5)',
  'Factors/Scaled.Multiplies/(7, 2)',
  'Scale.ByTwo',
  'Scale.ByZero',
];

async function analyze(...bugs: ReadonlyArray<readonly [string, string, string]>) {
  const root = await copy('grouping');
  for (const [file, from, to] of bugs) await edit(root, file, from, to);
  const result = await run(root);
  const raw = await ctest().analyzer!().analyze(result, project(root));
  return { root, result, groups: raw.map((f) => FailureSchema.parse(f)) };
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

describe('root-cause grouping on a real CMake + CTest + GoogleTest run', () => {
  let one: Awaited<ReturnType<typeof analyze>>;
  let two: Awaited<ReturnType<typeof analyze>>;
  let wrong: Awaited<ReturnType<typeof analyze>>;
  beforeAll(async () => {
    one = await analyze(GUARD_BUG);
    two = await analyze(GUARD_BUG, SCALE_BUG);
    wrong = await analyze(SCALE_BUG, COUNT_BUG);
  }, 900_000);

  it('makes one group of one bug in a function that five tests reach, three of them TEST_P cases', () => {
    expect(failing(one.result)).toEqual([
      'Bucket.FirstBucket',
      'Histogram.CountsValues',
      'Values/BucketOf.StaysInRange/3',
      'Values/BucketOf.StaysInRange/42',
      'Values/BucketOf.StaysInRange/97',
    ]);
    expect(one.result.tests.find((t) => t.id === 'Histogram.KeepsEmptyBuckets')!.status).toBe('passed');
    expect(one.groups).toHaveLength(1);
    expect(one.groups[0]).toMatchObject({
      kind: 'crash',
      location: { file: 'src/histogram.cpp', symbol: 'bucket_of' },
    });
    explainsEachOnce(one.result, one.groups);
  });

  it('makes two groups of two bugs; the TEST_P cases whose messages differ only in values are one', () => {
    const scaled = two.result.tests.filter((t) => t.id.startsWith('Factors/Scaled.Multiplies/'));
    expect(scaled.map((t) => t.status)).toEqual(['failed', 'failed', 'failed']);
    expect(new Set(scaled.map((t) => t.message)).size).toBe(3);
    expect(two.groups).toHaveLength(2);
    const guard = two.groups.find((g) => g.location?.symbol === 'bucket_of')!;
    expect(guard.tests).toHaveLength(5);
    const scaledGroup = two.groups.find((g) => g.kind === 'assertion')!;
    expect(scaledGroup.location).toMatchObject({ file: 'tests/histogram_test.cpp' });
    // with the TEST_P cases, the two TESTs whose EXPECT calls scaled: one bug, one group
    expect(scaledGroup.tests.sort()).toEqual(SCALE_TESTS);
    // the first bug reads the same with the second one present
    expect(guard.fingerprint).toBe(one.groups[0]!.fingerprint);
    explainsEachOnce(two.result, two.groups);
  });

  it('makes one group of assertions in TESTs and TEST_P cases whose failing line calls the same function, and one request holds them all', () => {
    const group = two.groups.find((g) => g.kind === 'assertion')!;
    expect(group.tests.sort()).toEqual(SCALE_TESTS);
    expect(group.evidence).toMatch(/The same cause fails 4 more test\(s\):/);
    // the test that failed first (CTest runs two at once, so which one varies) is shown in full,
    // each of the others by a line of its own
    const listed = SCALE_TESTS.filter((id) => group.evidence.includes(`- ${id}: `));
    expect(listed).toHaveLength(4);
    expect(group.evidence).toMatch(/: Failure\nExpected equality of these values:/);
  });

  it('keeps two wrong results of two functions in two groups (never one group that hides one)', () => {
    expect(failing(wrong.result)).toEqual(['Histogram.CountsValues', ...SCALE_TESTS].sort());
    expect(wrong.groups.map((g) => g.tests.sort())).toEqual(
      expect.arrayContaining([['Histogram.CountsValues'], SCALE_TESTS]),
    );
    expect(wrong.groups).toHaveLength(2);
    explainsEachOnce(wrong.result, wrong.groups);
  });

  it('scopes the group from its tests and the assertion to the function and its header', async () => {
    const analyzer = ctest().analyzer!();
    const scope = ScopeSchema.parse(await analyzer.scope(one.groups[0]!, project(one.root)));
    const roles = Object.fromEntries(scope.entries.map((e) => [e.file, e.role]));
    expect(roles['tests/histogram_test.cpp']).toBe('test');
    expect(roles['src/histogram.cpp']).toBe('source');
    expect(roles['src/histogram.h']).toBe('header');
    expect(analyzer.isTestFile!('tests/histogram_test.cpp')).toBe(true);
    expect(analyzer.isTestFile!('src/histogram.cpp')).toBe(false);
  });
});
