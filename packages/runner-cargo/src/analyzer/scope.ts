import type { Failure, ProjectInfo, ScopeInput } from '@suture/core';
import { nodeKey, rankScope, walkCodeGraph, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import { doctestPlace } from '../libtest.js';
import type { CrateFunction } from './rust-crate.js';
import { functionAt, shortName, type RustProject } from './project.js';
import { isRustTestFile } from './test-files.js';

const SCOPE_TIME_LIMIT_MS = 10_000;
const MAX_CANDIDATES = 6;

/** The definitions a call may reach: same name, the qualifier's type or module when written, same file first. */
export function callees(
  project: RustProject,
  from: CrateFunction,
  call: CrateFunction['calls'][number],
): CrateFunction[] {
  const all = project.byName.get(call.name) ?? [];
  const q = call.qualifier?.split('::').at(-1);
  const fitting = all.filter((f) => {
    if (!q || q === 'crate' || q === 'super') return true;
    if (q === 'Self') return f.owner === from.owner;
    return f.owner === q || f.module.at(-1) === q || f.trait === q || !/^[A-Z]/.test(q);
  });
  // the caller's own file first, then its crate's other files, then the rest
  return [...fitting]
    .sort((a, b) => Number(b.file === from.file) - Number(a.file === from.file))
    .filter((f) => !(f.file === from.file && f.name === from.name))
    .slice(0, MAX_CANDIDATES);
}

function expand(project: RustProject, node: CodeNode): CodeEdge[] {
  const fn = (project.byFile.get(node.file) ?? []).find((f) => f.name === node.symbol);
  if (!fn) return [];
  const edges: CodeEdge[] = [];
  for (const call of fn.calls)
    for (const target of callees(project, fn, call))
      edges.push({
        to: { file: target.file, symbol: target.name },
        role: isRustTestFile(target.file) ? 'test' : 'source',
        reason: `${fn.name} calls ${call.qualifier ? `${call.qualifier}::` : ''}${call.name} (line ${call.line})`,
        cost: target.file === fn.file ? 0 : 1,
      });
  return edges;
}

/** The test's own function, or for a doctest the function its comment documents. */
function testNode(project: RustProject, failure: Failure, id: string): CodeNode | undefined {
  const doc = doctestPlace(id);
  if (doc) {
    const next = (project.byFile.get(doc.file) ?? [])
      .filter((f) => f.line > doc.line)
      .sort((a, b) => a.line - b.line)[0];
    return next ? { file: doc.file, symbol: next.name } : { file: doc.file };
  }
  const file = id.slice(0, id.indexOf('.rs::') + 3);
  const name = id.slice(id.indexOf('.rs::') + 5);
  const fn = project.functions.find(
    (f) => f.path === name && (f.file === file || project.byFile.has(f.file)),
  );
  if (fn) return { file: fn.file, symbol: fn.name };
  return failure.location ? { file: failure.location.file } : undefined;
}

/**
 * The scope of a Rust failure, ranked: the failing tests' functions and the panic's place (and a
 * backtrace's frames), walked through calls resolved by name across the crate's modules (`mod`
 * files, `impl` blocks, trait methods and their implementations), a compiler error's files.
 */
export async function scopeCargo(
  failure: Failure,
  info: ProjectInfo,
  project: RustProject,
): Promise<ScopeInput> {
  const deadline = Date.now() + SCOPE_TIME_LIMIT_MS;
  const seeds: CodeEdge[] = [];
  for (const id of failure.tests.slice(0, 8)) {
    const node = testNode(project, failure, id);
    if (node) seeds.push({ to: node, role: 'test', reason: `the failing test ${id}` });
  }
  const frames: CodeNode[] = [...(failure.location ? [failure.location] : []), ...failure.frames].map((f) => {
    const symbol = f.symbol ?? (f.line ? functionAt(project, f.file, f.line)?.name : undefined);
    return { file: f.file, ...(symbol ? { symbol } : {}) };
  });
  frames.forEach((f, i) =>
    seeds.push({
      to: f,
      role: isRustTestFile(f.file) ? 'test' : 'source',
      reason:
        i === 0
          ? failure.kind === 'build' || failure.kind === 'syntax'
            ? 'where rustc reported the error'
            : 'where the test panicked'
          : `frame ${i + 1} of the backtrace`,
    }),
  );
  for (const d of failure.diagnostics)
    if (d.file && !d.file.startsWith('/') && !seeds.some((s) => s.to.file === d.file))
      seeds.push({
        to: { file: d.file },
        role: isRustTestFile(d.file) ? 'test' : 'source',
        reason: `rustc: ${d.message}`,
      });
  const walk = await walkCodeGraph(seeds, {
    maxDepth: info.scopeDepth,
    expand: async (n) => expand(project, n),
    maxNodes: 2000,
    deadline,
  });
  const onFailingLine: CodeNode[] = [];
  const loc = failure.location;
  if (loc?.line && loc.symbol) {
    const fn = (project.byFile.get(loc.file) ?? []).find((f) => f.name === loc.symbol);
    for (const c of fn?.calls.filter((call) => call.line === loc.line) ?? [])
      for (const t of callees(project, fn!, c)) onFailingLine.push({ file: t.file, symbol: t.name });
  }
  const lines = new Map<string, { line: number; endLine: number }>();
  for (const f of project.functions)
    lines.set(nodeKey({ file: f.file, symbol: f.name }), { line: f.attrLine ?? f.line, endLine: f.endLine });
  const entries = rankScope({
    reached: walk.reached,
    frames,
    onFailingLine,
    isTestFile: isRustTestFile,
    lines: (n) => lines.get(nodeKey(n)),
    maxDepth: info.scopeDepth,
  });
  const incomplete = [walk.incomplete, ...project.skipped].filter(Boolean).join('; ');
  return { entries, excluded: [], ...(incomplete ? { incomplete: `scope incomplete: ${incomplete}` } : {}) };
}

export { shortName };
