import { mergeScopeEntries, walkGraph, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import { type Failure, type ProjectInfo, type ScopeEntry, type ScopeInput } from '@suture/core';
import { parseId } from '../ids.js';
import { bindings, calls, definitions, resolveSource, testCallback, type ScriptCache } from './js-model.js';
import { isScriptTestFile } from './test-files.js';

const TEST_SYMBOL = '#test:';
const GLOBALS = new Set([
  'expect',
  'test',
  'it',
  'describe',
  'require',
  'console',
  'Math',
  'JSON',
  'Object',
  'Array',
  'Promise',
  'String',
  'Number',
  'Error',
  'beforeEach',
  'afterEach',
  'jest',
]);

async function expand(root: string, node: CodeNode, cache: ScriptCache): Promise<CodeEdge[]> {
  const parsed = await cache.parseFile(root, node.file);
  if (!parsed) return [];
  const defs = definitions(parsed.tree);
  const body = node.symbol?.startsWith(TEST_SYMBOL)
    ? testCallback(parsed.tree, node.symbol.slice(TEST_SYMBOL.length))
    : node.symbol
      ? // a frame in an anonymous test callback is named by its titles (`Cart > adds %i`)
        (defs.get(node.symbol) ?? testCallback(parsed.tree, node.symbol.split(' > ').pop()!))
      : parsed.tree.rootNode;
  if (!body) return [];
  const binds = bindings(parsed.tree);
  const from = node.symbol?.startsWith(TEST_SYMBOL)
    ? `test "${node.symbol.slice(TEST_SYMBOL.length)}"`
    : (node.symbol ?? node.file);
  const edges: CodeEdge[] = [];
  for (const call of calls(body)) {
    if (GLOBALS.has(call.name) && !call.object) continue;
    if (!call.object && defs.has(call.name) && call.name !== node.symbol) {
      edges.push({
        to: { file: node.file, symbol: call.name },
        role: 'source',
        reason: `${from} calls ${call.name}`,
      });
      continue;
    }
    if (call.object === 'this') {
      const cls = node.symbol?.split('.')[0];
      if (cls && defs.has(`${cls}.${call.name}`))
        edges.push({
          to: { file: node.file, symbol: `${cls}.${call.name}` },
          role: 'source',
          reason: `${from} calls this.${call.name}`,
        });
      continue;
    }
    const binding = binds.get(call.object ?? call.name);
    if (!binding) continue;
    const target = await resolveSource(root, node.file, binding.source);
    if (!target) continue;
    const symbol = call.object ? call.name : binding.name;
    const targetTree = (await cache.parseFile(root, target))?.tree;
    const known = targetTree ? definitions(targetTree) : new Map();
    edges.push({
      to: { file: target, ...(symbol && known.has(symbol) ? { symbol } : {}) },
      role: 'source',
      reason: `${from} calls ${call.object ? `${call.object}.` : ''}${call.name} (from '${binding.source}')`,
    });
  }
  return edges;
}

/** The test's callback, what it calls across imports and requires, and the stack frames. */
export async function scopeJest(
  failure: Failure,
  project: ProjectInfo,
  cache: ScriptCache,
): Promise<ScopeInput> {
  const seeds: CodeEdge[] = [];
  for (const id of failure.tests.slice(0, 5)) {
    const { file, fullName } = parseId(id);
    const title = (failure.details.title as string | undefined) ?? fullName;
    seeds.push({
      to: { file, symbol: `${TEST_SYMBOL}${title}` },
      role: 'test',
      reason: `the failing test "${fullName}"`,
    });
  }
  const frameEntries: ScopeEntry[] = [];
  const frames = [...(failure.location ? [failure.location] : []), ...failure.frames];
  frames.forEach((f, i) => {
    frameEntries.push({
      file: f.file,
      symbols: f.symbol ? [f.symbol] : [],
      role: isScriptTestFile(f.file) ? 'test' : 'source',
      reasons: [
        i === 0 ? `where the failure happened (line ${f.line ?? '?'})` : `frame ${i + 1} of the stack`,
      ],
      depth: 0,
    });
    seeds.push({
      to: { file: f.file, ...(f.symbol ? { symbol: f.symbol } : {}) },
      role: 'source',
      reason: i === 0 ? 'where the failure happened' : `frame ${i + 1} of the stack`,
    });
  });
  const walked = await walkGraph(seeds, {
    maxDepth: project.scopeDepth,
    expand: (node) => expand(project.root, node, cache),
  });
  // the synthetic "#test:" symbol names the test; report it by title
  for (const e of walked)
    e.symbols = e.symbols.map((s) => (s.startsWith(TEST_SYMBOL) ? s.slice(TEST_SYMBOL.length) : s));
  // the walk reaches helpers in test folders and mocks as callees: they are still tests
  for (const e of walked) if (e.role === 'source' && isScriptTestFile(e.file)) e.role = 'test';
  return { entries: mergeScopeEntries(frameEntries, walked), excluded: [] };
}
