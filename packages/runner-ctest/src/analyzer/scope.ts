import { join } from 'node:path';
import { mergeScopeEntries, walkGraph, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import { type Failure, type ProjectInfo, type ScopeEntry, type ScopeInput } from '@suture/core';
import {
  calls,
  definitions,
  implementationsOf,
  includes,
  projectSources,
  resolveInclude,
  type createCppCache,
} from './cpp-model.js';
import { isCppTestFile } from './test-files.js';

type Cache = ReturnType<typeof createCppCache>;

/** The files a file can see: itself, its project includes, and their implementation files. */
async function visibleFiles(
  root: string,
  file: string,
  sources: readonly string[],
  cache: Cache,
): Promise<Array<{ file: string; via: string }>> {
  const out: Array<{ file: string; via: string }> = [{ file, via: 'same file' }];
  const tree = (await cache.parseFile(join(root, file)))?.tree;
  for (const inc of tree ? includes(tree) : []) {
    const header = resolveInclude(file, inc, sources);
    if (!header) continue;
    out.push({ file: header, via: `#include "${inc}"` });
    for (const impl of implementationsOf(header, sources))
      out.push({ file: impl, via: `implements ${header}` });
  }
  return out;
}

async function expand(
  root: string,
  node: CodeNode,
  sources: readonly string[],
  cache: Cache,
): Promise<CodeEdge[]> {
  const tree = (await cache.parseFile(join(root, node.file)))?.tree;
  if (!tree) return [];
  const body = node.symbol ? definitions(tree).get(node.symbol) : tree.rootNode;
  if (!body) return [];
  const from = node.symbol?.replace(/^TEST:/, 'TEST ') ?? node.file;
  const edges: CodeEdge[] = [];
  const visible = await visibleFiles(root, node.file, sources, cache);
  for (const name of calls(body)) {
    for (const v of visible) {
      const t = (await cache.parseFile(join(root, v.file)))?.tree;
      if (t && definitions(t).has(name) && !(v.file === node.file && name === node.symbol)) {
        edges.push({
          to: { file: v.file, symbol: name },
          role: 'source',
          reason: `${from} calls ${name} (${v.via})`,
        });
        const header = /^implements (.+)$/.exec(v.via)?.[1];
        if (header)
          edges.push({
            to: { file: header, symbol: name },
            role: 'header',
            reason: `declares ${name}, called by ${from}`,
          });
      }
    }
  }
  return edges;
}

/** A plain `add_test` executable: its sources from `add_executable(<name> ...)` in the CMake files. */
async function executableSeeds(root: string, failure: Failure): Promise<CodeEdge[]> {
  const { readFile } = await import('node:fs/promises');
  const cmake = await readFile(join(root, 'CMakeLists.txt'), 'utf8').catch(() => '');
  const edges: CodeEdge[] = [];
  for (const id of failure.tests) {
    const name = id.split('::')[0]!;
    const m = new RegExp(
      `add_executable\\(\\s*${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s+([^)]*)\\)`,
    ).exec(cmake);
    for (const src of m?.[1]?.split(/\s+/).filter((s) => /\.(c|cc|cpp|cxx)$/.test(s)) ?? [])
      edges.push({
        to: { file: src },
        role: 'source',
        reason: `source of the test executable ${name} (add_executable in CMakeLists.txt)`,
      });
  }
  return edges;
}

/** From the TEST body through its calls to their definitions, following includes to headers and implementations. */
export async function scopeCtest(failure: Failure, project: ProjectInfo, cache: Cache): Promise<ScopeInput> {
  const sources = await projectSources(project.root);
  const seeds: CodeEdge[] = [];
  for (const id of failure.tests.slice(0, 5)) {
    const gtest = ((failure.details.gtest as string | undefined) ?? id.split('::').pop() ?? id)
      .replace(/\/\d+$/, '')
      .replace(/^\w+\//, '');
    for (const file of sources) {
      const tree = (await cache.parseFile(join(project.root, file)))?.tree;
      if (tree && definitions(tree).has(`TEST:${gtest}`))
        seeds.push({ to: { file, symbol: `TEST:${gtest}` }, role: 'test', reason: `the failing test ${id}` });
    }
  }
  const locEntries: ScopeEntry[] = [];
  const loc = failure.location;
  if (loc && sources.includes(loc.file)) {
    locEntries.push({
      file: loc.file,
      symbols: loc.symbol ? [loc.symbol] : [],
      role: isCppTestFile(loc.file) ? 'test' : /\.(h|hh|hpp|hxx)$/.test(loc.file) ? 'header' : 'source',
      reasons: [`where the failure is reported (line ${loc.line ?? '?'})`],
      depth: 0,
    });
    // a symbol like `Suite.Name` is a TEST body
    const symbol = loc.symbol ? (loc.symbol.includes('.') ? `TEST:${loc.symbol}` : loc.symbol) : undefined;
    seeds.push({
      to: { file: loc.file, ...(symbol ? { symbol } : {}) },
      role: 'source',
      reason: 'where the failure is reported',
    });
  }
  for (const d of failure.diagnostics) {
    for (const n of [d, ...d.notes])
      if (n.file && sources.includes(n.file))
        locEntries.push({
          file: n.file,
          symbols: [],
          role: isCppTestFile(n.file) ? 'test' : 'source',
          reasons: [`compiler diagnostic: ${n.message.slice(0, 120)}`],
          depth: 0,
        });
  }
  if (seeds.length === 0) seeds.push(...(await executableSeeds(project.root, failure)));
  const walked = await walkGraph(seeds, {
    maxDepth: project.scopeDepth,
    expand: (node) => expand(project.root, node, sources, cache),
  });
  for (const e of walked) e.symbols = e.symbols.map((s) => s.replace(/^TEST:/, ''));
  // the walk reaches helpers in test files as callees: they are still tests
  for (const e of walked) if (e.role !== 'test' && isCppTestFile(e.file)) e.role = 'test';
  return { entries: mergeScopeEntries(locEntries, walked), excluded: [] };
}
