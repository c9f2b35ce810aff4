import { describe, expect, it } from 'vitest';
import { mergeScopeEntries, walkGraph, type CodeEdge, type CodeNode } from './graph-walk.js';

// test_a -> f (a.py) -> g (b.py) -> h (c.py) -> i (d.py); f -> f (recursion)
const graph: Record<string, CodeEdge[]> = {
  'tests/test_a.py#test_a': [{ to: { file: 'a.py', symbol: 'f' }, role: 'source', reason: 'test_a calls f' }],
  'a.py#f': [
    { to: { file: 'b.py', symbol: 'g' }, role: 'source', reason: 'f calls g' },
    { to: { file: 'a.py', symbol: 'f' }, role: 'source', reason: 'f calls f' },
  ],
  'b.py#g': [{ to: { file: 'c.py', symbol: 'h' }, role: 'source', reason: 'g calls h' }],
  'c.py#h': [{ to: { file: 'd.py', symbol: 'i' }, role: 'source', reason: 'h calls i' }],
};
const expand = async (n: CodeNode): Promise<CodeEdge[]> => graph[`${n.file}#${n.symbol}`] ?? [];
const seed: CodeEdge = {
  to: { file: 'tests/test_a.py', symbol: 'test_a' },
  role: 'test',
  reason: 'the failing test',
};

describe('walkGraph', () => {
  it('follows edges up to the depth limit, with depth and reasons', async () => {
    const entries = await walkGraph([seed], { maxDepth: 2, expand });
    expect(entries.map((e) => [e.file, e.depth])).toEqual([
      ['tests/test_a.py', 0],
      ['a.py', 1],
      ['b.py', 2],
    ]);
    expect(entries.find((e) => e.file === 'b.py')!.reasons).toEqual(['f calls g']);
  });

  it('terminates on cycles and respects maxNodes', async () => {
    const all = await walkGraph([seed], { maxDepth: 10, expand });
    expect(all.map((e) => e.file)).toEqual(['tests/test_a.py', 'a.py', 'b.py', 'c.py', 'd.py']);
    const capped = await walkGraph([seed], { maxDepth: 10, expand, maxNodes: 2 });
    expect(capped.length).toBeLessThan(all.length);
  });

  it('depth 0 keeps only the seeds', async () => {
    const entries = await walkGraph([seed], { maxDepth: 0, expand });
    expect(entries.map((e) => e.file)).toEqual(['tests/test_a.py']);
  });

  it('merges symbols and keeps the smallest depth per file', () => {
    const merged = mergeScopeEntries(
      [{ file: 'a.py', symbols: ['f'], role: 'source', reasons: ['walk'], depth: 2 }],
      [{ file: 'a.py', symbols: ['g'], role: 'source', reasons: ['traceback frame 1'], depth: 0 }],
    );
    expect(merged).toEqual([
      { file: 'a.py', symbols: ['f', 'g'], role: 'source', reasons: ['walk', 'traceback frame 1'], depth: 0 },
    ]);
  });
});
