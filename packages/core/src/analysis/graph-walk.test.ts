import { describe, expect, it } from 'vitest';
import {
  mergeScopeEntries,
  nodeKey,
  walkCodeGraph,
  walkGraph,
  type CodeEdge,
  type CodeNode,
} from './graph-walk.js';

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

  it('goes deeper than maxDepth while the scope is small, up to its extension, and no deeper', async () => {
    const files = async (extend: { nodes: number; depth: number }) =>
      (await walkGraph([seed], { maxDepth: 1, expand, extend })).map((e) => e.file);
    // 2 nodes at depth 1, fewer than 10: one level more, then another, up to depth 3
    expect(await files({ nodes: 10, depth: 3 })).toEqual(['tests/test_a.py', 'a.py', 'b.py', 'c.py']);
    // a scope as big as the extension asks for at depth 1 keeps maxDepth
    expect(await files({ nodes: 2, depth: 9 })).toEqual(['tests/test_a.py', 'a.py']);
    // an extension that is no deeper than maxDepth changes nothing
    expect(await files({ nodes: 10, depth: 1 })).toEqual(['tests/test_a.py', 'a.py']);
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

describe('walkCodeGraph', () => {
  // test -> api (lib.py) -> a -> b -> c, all in lib.py; c -> other (ext.py)
  const local: Record<string, CodeEdge[]> = {
    'tests/test_x.py#test_x': [
      { to: { file: 'lib.py', symbol: 'api' }, role: 'source', reason: 'calls api' },
    ],
    'lib.py#api': [{ to: { file: 'lib.py', symbol: 'a' }, role: 'source', reason: 'api calls a', cost: 0 }],
    'lib.py#a': [{ to: { file: 'lib.py', symbol: 'b' }, role: 'source', reason: 'a calls b', cost: 0 }],
    'lib.py#b': [{ to: { file: 'lib.py', symbol: 'c' }, role: 'source', reason: 'b calls c', cost: 0 }],
    'lib.py#c': [{ to: { file: 'ext.py', symbol: 'other' }, role: 'source', reason: 'c calls other' }],
  };
  const expandLocal = async (n: CodeNode): Promise<CodeEdge[]> => local[`${n.file}#${n.symbol}`] ?? [];
  const start: CodeEdge = { to: { file: 'tests/test_x.py', symbol: 'test_x' }, role: 'test', reason: 'test' };

  it('follows calls within a file to any depth, counting only the files crossed against maxDepth', async () => {
    const walk = await walkCodeGraph([start], { maxDepth: 1, expand: expandLocal });
    expect(walk.reached.map((n) => [n.node.symbol, n.depth, n.distance])).toEqual([
      ['test_x', 0, 0],
      ['api', 1, 1],
      ['a', 1, 2],
      ['b', 1, 3],
      ['c', 1, 4],
    ]);
    expect(walk.reached.find((n) => n.node.symbol === 'c')!.parent).toBe(
      nodeKey({ file: 'lib.py', symbol: 'b' }),
    );
    expect(walk.incomplete).toBeUndefined();
    const deeper = await walkCodeGraph([start], { maxDepth: 2, expand: expandLocal });
    expect(deeper.entries.map((e) => [e.file, e.depth])).toEqual([
      ['tests/test_x.py', 0],
      ['lib.py', 1],
      ['ext.py', 2],
    ]);
  });

  it('says the scope is incomplete when it stops at its node limit or its deadline', async () => {
    const capped = await walkCodeGraph([start], { maxDepth: 5, expand: expandLocal, maxNodes: 3 });
    expect(capped.reached).toHaveLength(3);
    expect(capped.incomplete).toMatch(/limit of 3 functions/);
    const slow = async (n: CodeNode): Promise<CodeEdge[]> => {
      await new Promise((r) => setTimeout(r, 30));
      return expandLocal(n);
    };
    const late = await walkCodeGraph([start], { maxDepth: 5, expand: slow, deadline: Date.now() + 45 });
    expect(late.reached.length).toBeLessThan(6);
    expect(late.incomplete).toMatch(/ran out of its time limit/);
  });

  it('keeps at most five distinct reasons per node', async () => {
    const many = Array.from({ length: 9 }, (_, i) => ({
      to: { file: 'lib.py', symbol: 'api' },
      role: 'source' as const,
      reason: `reason ${i % 7}`,
    }));
    const walk = await walkCodeGraph(many, { maxDepth: 0, expand: async () => [] });
    expect(walk.reached[0]!.reasons).toEqual(['reason 0', 'reason 1', 'reason 2', 'reason 3', 'reason 4']);
  });
  it('records every caller it found an edge from, the first one first, at most eight', async () => {
    const callers = Array.from({ length: 10 }, (_, i) => ({ file: 'a.py', symbol: `f${i}` }));
    const walk = await walkCodeGraph(
      callers.map((to) => ({ to, role: 'source' as const, reason: 'seed' })),
      {
        maxDepth: 1,
        expand: async (n) =>
          n.symbol === 'target'
            ? []
            : [
                {
                  to: { file: 'b.py', symbol: 'target' },
                  role: 'source',
                  reason: `${n.symbol} calls target`,
                },
              ],
      },
    );
    const target = walk.reached.find((n) => n.node.symbol === 'target')!;
    expect(target.parent).toBe(nodeKey(callers[0]!));
    expect(target.callers).toEqual(callers.slice(0, 8).map(nodeKey));
    expect(walk.reached.find((n) => n.node.symbol === 'f0')!.callers).toBeUndefined();
  });
});
