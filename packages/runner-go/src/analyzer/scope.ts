import { readdir } from 'node:fs/promises';
import { join, posix } from 'node:path';
import type { Failure, ProjectInfo, ScopeEntry, ScopeInput } from '@suture/core';
import {
  rankScope,
  walkCodeGraph,
  type CodeEdge,
  type CodeNode,
  type SummaryCache,
} from '@suture/core/analysis';
import type { GoFile, GoFunc } from '../go-source.js';
import { parseId } from '../ids.js';
import { projectModules, type GoModule } from '../modules.js';
import { isGoTestFile } from './test-files.js';

type Summaries = SummaryCache<GoFile>;

/** The Go files of each package folder of a project, read once per scope. */
class Packages {
  private readonly files = new Map<string, Promise<Array<{ file: string; summary: GoFile }>>>();

  constructor(
    private readonly root: string,
    private readonly summaries: Summaries,
    readonly modules: GoModule[],
  ) {}

  of(dir: string): Promise<Array<{ file: string; summary: GoFile }>> {
    let found = this.files.get(dir);
    if (!found) {
      found = (async () => {
        const names = (await readdir(join(this.root, dir)).catch(() => [] as string[]))
          .filter((n) => n.endsWith('.go'))
          .sort();
        const out: Array<{ file: string; summary: GoFile }> = [];
        for (const n of names) {
          const file = dir === '.' ? n : posix.join(dir, n);
          const summary = (await this.summaries.read(this.root, file))?.summary;
          if (summary) out.push({ file, summary });
        }
        return out;
      })();
      this.files.set(dir, found);
    }
    return found;
  }

  /** The project folder of an import path inside the project's modules. */
  dirOfImport(path: string): string | undefined {
    for (const m of this.modules)
      if (path === m.path || path.startsWith(`${m.path}/`)) {
        const dir = posix.join(m.dir, path.slice(m.path.length + 1));
        return dir === '' ? '.' : dir;
      }
    return undefined;
  }
}

const dirOf = (file: string): string => posix.dirname(file);

/** Where a call of `fn` in `file` may lead: functions and methods of the package and the module. */
async function callees(file: string, fn: GoFunc, summary: GoFile, pkgs: Packages): Promise<CodeEdge[]> {
  const edges: CodeEdge[] = [];
  const here = await pkgs.of(dirOf(file));
  const seen = new Set<string>();
  const add = (to: CodeNode, reason: string, cost: 0 | 1): void => {
    const key = `${to.file}\0${to.symbol}`;
    if (seen.has(key) || edges.length > 60) return;
    seen.add(key);
    edges.push({ to, role: isGoTestFile(to.file) ? 'test' : 'source', reason, cost });
  };
  for (const call of fn.calls) {
    const imported = call.qualifier ? summary.imports[call.qualifier] : undefined;
    if (imported) {
      const dir = pkgs.dirOfImport(imported);
      if (!dir) continue;
      for (const f of await pkgs.of(dir))
        for (const g of f.summary.funcs)
          if (!g.receiver && g.name === call.name)
            add({ file: f.file, symbol: g.name }, `${fn.name} calls ${call.qualifier}.${call.name}`, 1);
      continue;
    }
    // a plain call, a method through a value, or a method an interface names: the package's own first
    for (const f of here)
      for (const g of f.summary.funcs) {
        const own = g.receiver ? g.name.slice(g.receiver.length + 1) : g.name;
        if (own !== call.name || (call.qualifier === undefined) !== (g.receiver === undefined)) continue;
        add(
          { file: f.file, symbol: g.name },
          `${fn.name} calls ${call.qualifier ? `${call.qualifier}.` : ''}${call.name}`,
          f.file === file ? 0 : 1,
        );
      }
  }
  return edges;
}

/**
 * The scope of a Go failure: from the failing tests and the failure's frames through calls to
 * functions and methods of the module (a method called through an interface reaches every
 * method of that name in the package), ranked by core's policy.
 */
export async function scopeGo(
  failure: Failure,
  project: ProjectInfo,
  summaries: Summaries,
): Promise<ScopeInput> {
  const pkgs = new Packages(project.root, summaries, await projectModules(project.root));
  const seeds: CodeEdge[] = [];
  const frames: CodeNode[] = [];
  const seed = (to: CodeNode, reason: string): void => {
    seeds.push({ to, role: isGoTestFile(to.file) ? 'test' : 'source', reason });
  };
  if (failure.location) {
    frames.push({
      file: failure.location.file,
      ...(failure.location.symbol ? { symbol: failure.location.symbol } : {}),
    });
    seed(
      frames[0]!,
      `where it failed (${failure.location.file}${failure.location.line ? `:${failure.location.line}` : ''})`,
    );
  }
  for (const f of failure.frames) {
    frames.push({ file: f.file, ...(f.symbol ? { symbol: f.symbol } : {}) });
    seed(frames.at(-1)!, `frame of the trace (${f.file}:${f.line ?? ''})`);
  }
  for (const id of failure.tests) {
    const parsed = parseId(id);
    if (!parsed) continue;
    for (const f of await pkgs.of(parsed.dir))
      if (f.summary.funcs.some((g) => g.name === parsed.path[0]))
        seed({ file: f.file, symbol: parsed.path[0]! }, `the failing test ${id}`);
  }
  const extra: ScopeEntry[] = [];
  for (const d of failure.diagnostics)
    if (d.file && !d.file.startsWith('/'))
      extra.push({
        file: d.file,
        symbols: [],
        role: isGoTestFile(d.file) ? 'test' : 'source',
        reasons: [`${d.source}: ${d.message}`.slice(0, 160)],
        depth: 0,
      });
  const walk = await walkCodeGraph(seeds, {
    maxDepth: project.scopeDepth,
    deadline: Date.now() + 10_000,
    expand: async (node) => {
      const summary = (await summaries.read(project.root, node.file))?.summary;
      if (!summary) return [];
      const fns = node.symbol ? summary.funcs.filter((f) => f.name === node.symbol) : summary.funcs;
      return (await Promise.all(fns.map((fn) => callees(node.file, fn, summary, pkgs)))).flat();
    },
  });
  const lines = new Map<string, { line: number; endLine: number }>();
  for (const r of walk.reached) {
    const summary = (await summaries.read(project.root, r.node.file))?.summary;
    const fn = summary?.funcs.find((f) => f.name === r.node.symbol);
    if (fn) lines.set(`${r.node.file}\0${r.node.symbol}`, { line: fn.line, endLine: fn.endLine });
  }
  const entries = rankScope({
    reached: walk.reached,
    frames,
    isTestFile: isGoTestFile,
    lines: (n) => lines.get(`${n.file}\0${n.symbol ?? ''}`),
    extra,
    maxDepth: project.scopeDepth,
  });
  const out = entries.length ? entries : extra;
  return { entries: out, excluded: [], ...(walk.incomplete ? { incomplete: walk.incomplete } : {}) };
}
