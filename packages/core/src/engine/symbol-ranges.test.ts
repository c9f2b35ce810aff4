import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FailureSchema, ScopeSchema } from '../api/contracts/failure.js';
import { definitionRange, enclosingRange, rankByDefinitions } from './symbol-ranges.js';

const JS = `'use strict';

/** Sum of the lines. */
function subtotal(cart) {
  return cart.lines.reduce((sum, line) => sum + line.price, 0);
}

describe('cart', () => {
  test('subtotal multiplies price by quantity', () => {
    expect(subtotal(cart)).toBe(3000);
  });
});
`;
const CPP = `double median(std::vector<double> xs);

TEST(Median, EvenCountAveragesTheMiddle) { EXPECT_DOUBLE_EQ(stats::median({4, 1, 3, 2}), 2.5); }

double median(std::vector<double> xs) {
  std::sort(xs.begin(), xs.end());
  return xs[xs.size() / 2];
}
`;

describe('definitions', () => {
  const js = JS.split('\n');
  const cpp = CPP.split('\n');

  it('finds functions with their doc comment, Jest tests by title and GoogleTest cases', () => {
    expect(definitionRange(js, 'subtotal')).toEqual([3, 6]);
    expect(definitionRange(js, 'cart > subtotal multiplies price by quantity')).toEqual([9, 11]);
    expect(definitionRange(cpp, 'Median.EvenCountAveragesTheMiddle')).toEqual([3, 3]);
  });

  it('prefers the definition to a declaration, and takes a lone declaration (a header) as its line', () => {
    expect(definitionRange(cpp, 'median')).toEqual([5, 8]);
    const header = [
      '#pragma once',
      '',
      '/// Median of a sample.',
      'double median(std::vector<double> xs);',
      '',
    ];
    expect(definitionRange(header, 'median')).toEqual([3, 4]);
  });

  it('finds the definition that holds a line', () => {
    expect(enclosingRange(js, 5)).toEqual([3, 6]);
    expect(enclosingRange(cpp, 7)).toEqual([5, 8]);
  });
});

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

describe('rankByDefinitions', () => {
  it("ranks an unranked scope: the failure's frames first, then symbols by the entry's place", async () => {
    const root = await mkdtemp(join(tmpdir(), 'suture-rank-'));
    dirs.push(root);
    await writeFile(join(root, 'cart.js'), JS);
    const failure = FailureSchema.parse({
      id: 'p:x',
      kind: 'exception',
      title: 't',
      tests: ['t'],
      evidence: 'e',
      fingerprint: 'x',
      repairable: true,
      location: { file: 'cart.js', line: 5, symbol: 'subtotal' },
    });
    const scope = ScopeSchema.parse({
      entries: [{ file: 'cart.js', role: 'source', reasons: ['frame 1'], symbols: ['subtotal'] }],
    });
    const [entry] = (await rankByDefinitions(root, failure, scope)).entries;
    expect(entry!.ranking).toEqual([
      { symbol: 'subtotal', score: 1, reason: 'frame 1', line: 3, endLine: 6 },
    ]);
    expect(entry!.score).toBe(1);
  });
});
