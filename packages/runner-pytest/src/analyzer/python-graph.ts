import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { nodeKey, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import type { PyIndex, PythonProject, Resolved } from './python-project.js';
import { doctestSource, type PyDef, type PyUse } from './python-summary.js';

const BUILTINS = new Set(
  (
    'print len range str int float list dict set tuple sum min max sorted isinstance issubclass super ' +
    'self cls abs round enumerate zip map filter any all open repr type bool True False None object ' +
    'getattr setattr hasattr iter next reversed id hash divmod pow chr ord format vars dir callable ' +
    'frozenset bytes bytearray slice property staticmethod classmethod NotImplemented Exception ' +
    'ValueError TypeError KeyError IndexError AttributeError RuntimeError StopIteration pytest'
  ).split(' '),
);

/** A node's symbol for the examples of a doctest: in a module (`#doctest:Cls.meth`) or a document (`#doctest`). */
export const DOCTEST = '#doctest';

/** Classes a call on an object of unknown type is matched against, at most. */
const MAX_CANDIDATE_CLASSES = 6;

/**
 * The Python call graph, edge by edge: what a function (or a module's top level, or a doctest)
 * uses, resolved to definitions through the project's imports. Memoised per node.
 */
export class PythonGraph {
  private readonly memo = new Map<string, Promise<CodeEdge[]>>();

  constructor(readonly project: PythonProject) {}

  expand(node: CodeNode): Promise<CodeEdge[]> {
    const key = nodeKey(node);
    let found = this.memo.get(key);
    if (!found) {
      found = this.compute(node);
      this.memo.set(key, found);
    }
    return found;
  }

  /** The definitions the uses on one line of a function lead to (the failing line of a test). */
  async onLine(node: CodeNode, line: number): Promise<CodeNode[]> {
    const scope = await this.scopeOf(node);
    if (!scope) return [];
    const uses = scope.uses.filter((u) => u.lines.includes(line));
    const edges = await this.resolveUses(scope.index, scope.def, uses, node);
    return edges.map((e) => e.to);
  }

  /** Where a symbol is defined, for the ranking and the budget. */
  async lines(node: CodeNode): Promise<{ line: number; endLine: number } | undefined> {
    if (!node.symbol || node.symbol.startsWith(DOCTEST)) return undefined;
    const def = (await this.project.index(node.file))?.defs.get(node.symbol);
    return def ? { line: def.line, endLine: def.endLine } : undefined;
  }

  private async scopeOf(
    node: CodeNode,
  ): Promise<{ index: PyIndex; def: PyDef | undefined; uses: PyUse[] } | undefined> {
    if (node.symbol?.startsWith(DOCTEST)) {
      const documented = node.symbol.slice(DOCTEST.length + 1);
      let text: string | undefined;
      if (documented || node.file.endsWith('.py')) {
        const index = await this.project.index(node.file);
        text = documented ? index?.defs.get(documented)?.doctest : index?.module.doctest;
      } else text = await readFile(join(this.project.root, node.file), 'utf8').catch(() => undefined);
      if (!text) return undefined;
      const examples = await this.project.indexText(`${node.file}::${node.symbol}`, doctestSource(text));
      if (!examples) return undefined;
      // a doctest runs in its module's namespace: unresolved names are looked up there
      return { index: examples, def: undefined, uses: examples.module.uses };
    }
    const index = await this.project.index(node.file);
    if (!index) return undefined;
    if (!node.symbol) return { index, def: undefined, uses: index.module.uses };
    const def = index.defs.get(node.symbol);
    return def ? { index, def, uses: def.uses } : undefined;
  }

  private async compute(node: CodeNode): Promise<CodeEdge[]> {
    const scope = await this.scopeOf(node);
    if (!scope) return [];
    const edges = await this.resolveUses(scope.index, scope.def, scope.uses, node);
    const from = node.symbol ?? node.file;
    const def = scope.def;
    if (def?.kind === 'class') {
      for (const ctor of ['__init__', '__new__', '__post_init__']) {
        const m = await this.project.method(node.file, def.name, ctor);
        if (m?.symbol) edges.push(this.edge(node, m, `${def.name}() runs ${m.symbol}`));
      }
    }
    for (const deco of def?.decorators ?? []) {
      const target = await this.resolve(scope.index, deco);
      if (target?.symbol) edges.push(this.edge(node, target, `${from} is wrapped by @${deco}`));
    }
    // the examples of a documented function exercise it
    if (node.symbol?.startsWith(`${DOCTEST}:`)) {
      const documented = node.symbol.slice(DOCTEST.length + 1);
      edges.push(
        this.edge(
          node,
          { file: node.file, symbol: documented, via: [] },
          `the doctest documents ${documented}`,
        ),
      );
    }
    return edges;
  }

  private edge(from: CodeNode, to: Resolved, reason: string): CodeEdge {
    const via = to.via.length > 0 ? ` (through ${[...new Set(to.via)].slice(0, 3).join(', ')})` : '';
    return {
      to: { file: to.file, ...(to.symbol ? { symbol: to.symbol } : {}) },
      role: 'source',
      reason: `${reason}${via}`,
      cost: to.file === from.file ? 0 : 1,
    };
  }

  /** A name or dotted name as written in a module. */
  private async resolve(index: PyIndex, text: string): Promise<Resolved | undefined> {
    if (!text.includes('.')) return this.project.resolveName(index.file, text);
    const dot = text.lastIndexOf('.');
    return this.project.resolveAttribute(index.file, text.slice(0, dot), text.slice(dot + 1));
  }

  private async resolveUses(
    index: PyIndex,
    def: PyDef | undefined,
    uses: readonly PyUse[],
    node: CodeNode,
  ): Promise<CodeEdge[]> {
    const edges: CodeEdge[] = [];
    const from = node.symbol?.startsWith(DOCTEST)
      ? `the doctest of ${node.file}`
      : (node.symbol ?? node.file);
    const cls = def?.name.includes('.')
      ? def.name.split('.')[0]
      : def?.kind === 'class'
        ? def.name
        : undefined;
    const types = new Map(def?.types ?? []);
    // the examples of a module's doctest read the module's own names
    const namespace = node.symbol?.startsWith(DOCTEST) && node.file.endsWith('.py') ? node.file : undefined;
    for (const use of uses) {
      if (!use.object && BUILTINS.has(use.name)) continue;
      const targets: Array<{ to: Resolved; reason: string }> = [];
      if (!use.object) {
        let to = await this.project.resolveName(index.file, use.name);
        if (!to && namespace) to = await this.project.resolveName(namespace, use.name);
        if (to && (to.symbol || to.file !== index.file))
          targets.push({ to, reason: `${from} calls ${use.name}` });
      } else if ((use.object === 'self' || use.object === 'cls') && cls) {
        const to = await this.project.method(index.file, cls, use.name);
        if (to) targets.push({ to, reason: `${from} calls ${use.object}.${use.name}` });
      } else {
        const typed = types.get(use.object);
        const owner = typed ? await this.resolve(index, typed) : undefined;
        if (owner?.symbol) {
          const to = await this.project.method(owner.file, owner.symbol, use.name);
          if (to) targets.push({ to, reason: `${from} calls ${use.object}.${use.name} (a ${owner.symbol})` });
          if (to?.symbol && to.symbol !== `${owner.symbol}.${use.name}`)
            targets.push(...(await this.inherited(owner, to, `${use.object}.${use.name}`)));
        }
        if (targets.length === 0) {
          const to = await this.project.resolveAttribute(index.file, use.object, use.name);
          if (to) targets.push({ to, reason: `${from} calls ${use.object}.${use.name}` });
        }
        if (targets.length === 0) targets.push(...(await this.byMethodName(index, use, from)));
      }
      for (const t of targets)
        if (nodeKey(t.to) !== nodeKey(node) && !t.to.file.includes('::'))
          edges.push(this.edge(node, t.to, t.reason));
    }
    return edges;
  }

  /**
   * A method a class inherits (`exporter.export()` on a CsvExporter, defined by Exporter): the
   * class itself, whose own file holds what it changes (attributes, overrides), and its overrides
   * of the methods the inherited one calls on `self` (Exporter.export calls self.render, which
   * CsvExporter overrides), which a walk from the base class's method alone never reaches.
   */
  private async inherited(
    owner: Resolved,
    method: Resolved,
    called: string,
  ): Promise<Array<{ to: Resolved; reason: string }>> {
    const cls = owner.symbol!;
    const out: Array<{ to: Resolved; reason: string }> = [
      {
        to: { file: owner.file, symbol: cls, via: [] },
        reason: `${called} runs on a ${cls}, which inherits it`,
      },
    ];
    const def = (await this.project.index(method.file))?.defs.get(method.symbol!);
    const base = method.symbol!.slice(0, method.symbol!.lastIndexOf('.'));
    for (const use of def?.uses ?? []) {
      if (use.object !== 'self' && use.object !== 'cls') continue;
      const own = await this.project.method(owner.file, cls, use.name);
      const inBase = await this.project.method(method.file, base, use.name);
      if (own?.symbol && (own.file !== inBase?.file || own.symbol !== inBase?.symbol))
        out.push({
          to: own,
          reason: `${method.symbol} calls self.${use.name} on a ${cls}, which overrides it as ${own.symbol}`,
        });
      if (out.length > MAX_CANDIDATE_CLASSES) break;
    }
    return out;
  }

  /** `obj.m()` on an object of unknown type: the classes this module defines or imports that have `m`. */
  private async byMethodName(
    index: PyIndex,
    use: PyUse,
    from: string,
  ): Promise<Array<{ to: Resolved; reason: string }>> {
    const out: Array<{ to: Resolved; reason: string }> = [];
    const classes: Resolved[] = index.module.defs
      .filter((d) => d.kind === 'class')
      .map((d) => ({ file: index.file, symbol: d.name, via: [] }));
    for (const name of index.imports.keys()) {
      if (!/^[A-Z]/.test(name)) continue;
      const r = await this.project.resolveName(index.file, name);
      if (r?.symbol && (await this.project.index(r.file))?.defs.get(r.symbol)?.kind === 'class')
        classes.push(r);
    }
    for (const c of classes.slice(0, MAX_CANDIDATE_CLASSES * 2)) {
      const to = await this.project.method(c.file, c.symbol!, use.name);
      if (to) out.push({ to, reason: `${from} calls ${use.object}.${use.name} (a ${c.symbol} method)` });
      if (out.length >= MAX_CANDIDATE_CLASSES) break;
    }
    return out;
  }
}
