import { nodeKey, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import type { JsIndex, JsProject, Resolved } from './js-project.js';
import type { JsUse } from './js-summary.js';

const GLOBALS = new Set(
  (
    'expect test it describe require console Math JSON Object Array Promise String Number Boolean Error ' +
    'TypeError RangeError beforeEach afterEach beforeAll afterAll jest Date Map Set WeakMap Symbol ' +
    'parseInt parseFloat isNaN undefined null setTimeout clearTimeout module exports process Buffer'
  ).split(' '),
);

/** An edge from a caller to the function that defines the function it calls, by their `nodeKey`s. */
export function innerCallKey(from: string, to: string): string {
  return `${from}\u0001${to}`;
}

/** The symbol of a test callback in the graph: its path of titles after this prefix. */
export const TEST_SYMBOL = '#test:';

/** The name after a symbol's suite titles: `Store.add` of `Cart > Store.add`. */
function ownName(symbol: string): string {
  const at = symbol.lastIndexOf(' > ');
  return at < 0 ? symbol : symbol.slice(at + 3);
}

/** The titles of the suites a test or a suite's declaration is in: `Cart` of `Cart > adds`. */
function suiteOf(path: string): { suite?: string } {
  const at = path.lastIndexOf(' > ');
  return at < 0 ? {} : { suite: path.slice(0, at) };
}

/** The JS/TS call graph, edge by edge, resolved through imports and exports. Memoised per node. */
export class JsGraph {
  private readonly memo = new Map<string, Promise<CodeEdge[]>>();
  /** `innerCallKey`s of the edges that call a function defined inside their target. */
  readonly innerCalls = new Set<string>();

  constructor(readonly project: JsProject) {}

  expand(node: CodeNode): Promise<CodeEdge[]> {
    const key = nodeKey(node);
    let found = this.memo.get(key);
    if (!found) {
      found = this.compute(node);
      this.memo.set(key, found);
    }
    return found;
  }

  /**
   * The uses of a function or test callback, its module, and the titles of the suites it is in
   * (whose declarations it sees).
   */
  private async body(node: CodeNode): Promise<{ index: JsIndex; uses: JsUse[]; suite?: string } | undefined> {
    const index = await this.project.index(node.file);
    if (!index) return undefined;
    if (!node.symbol) return { index, uses: index.module.defs.flatMap((d) => d.uses) };
    const def = index.defs.get(node.symbol);
    if (def) return { index, uses: def.uses, ...suiteOf(def.name) };
    const title = node.symbol.startsWith(TEST_SYMBOL) ? node.symbol.slice(TEST_SYMBOL.length) : node.symbol;
    const test = await this.project.test(node.file, title);
    if (!test) return undefined;
    // the hooks of its suites run with it: the object a test calls is often built in a beforeEach
    const hooks = index.module.hooks.filter((h) => h.suite === '' || test.path.startsWith(`${h.suite} > `));
    return { index, uses: [...test.uses, ...hooks.flatMap((h) => h.uses)], ...suiteOf(test.path) };
  }

  /** A name as code in `suite` sees it: a declaration of its suite or an enclosing one, else the module's. */
  private async resolveIn(
    index: JsIndex,
    suite: string | undefined,
    name: string,
  ): Promise<Resolved | undefined> {
    for (let at = suite; at; at = suiteOf(at).suite) {
      const local = `${at} > ${name}`;
      if (index.defs.has(local)) return { file: index.file, symbol: local, via: [] };
    }
    return this.project.resolveName(index.file, name);
  }

  /** The definitions the uses on one line lead to (the failing `expect`). */
  async onLine(node: CodeNode, line: number): Promise<CodeNode[]> {
    const body = await this.body(node);
    if (!body) return [];
    return (
      await this.resolveUses(
        node,
        body.index,
        body.uses.filter((u) => u.lines.includes(line)),
        body.suite,
      )
    ).map((e) => e.to);
  }

  async lines(node: CodeNode): Promise<{ line: number; endLine: number } | undefined> {
    if (!node.symbol) return undefined;
    const def = (await this.project.index(node.file))?.defs.get(node.symbol);
    if (def) return { line: def.line, endLine: def.endLine };
    const test = await this.project.test(node.file, node.symbol.replace(TEST_SYMBOL, ''));
    return test ? { line: test.line, endLine: test.endLine } : undefined;
  }

  private async compute(node: CodeNode): Promise<CodeEdge[]> {
    const body = await this.body(node);
    return body ? this.resolveUses(node, body.index, body.uses, body.suite) : [];
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

  private async resolveUses(
    node: CodeNode,
    index: JsIndex,
    uses: readonly JsUse[],
    suite: string | undefined,
  ): Promise<CodeEdge[]> {
    const from = !node.symbol
      ? node.file
      : index.defs.has(node.symbol)
        ? node.symbol
        : `test "${node.symbol.replace(TEST_SYMBOL, '')}"`;
    // `Cart.add` or, declared in a suite, `Cart > Store.add`: the class is the symbol less its
    // method, whatever dots the suites' titles hold
    const own = node.symbol && !node.symbol.startsWith(TEST_SYMBOL) ? ownName(node.symbol) : undefined;
    const cls = own && `${node.symbol!.slice(0, -own.length)}${own.split('.')[0]}`;
    const edges: CodeEdge[] = [];
    for (const use of uses) {
      if (!use.object && GLOBALS.has(use.name)) continue;
      let to: Resolved | undefined;
      if (!use.object) {
        to = await this.resolveIn(index, suite, use.name);
        // a whole module called as a function: its default export (`module.exports = fn`)
        if (to && !to.symbol) to = (await this.project.resolveExport(to.file, 'default')) ?? to;
      } else if (use.object === 'this' && cls) {
        if (index.defs.has(`${cls}.${use.name}`))
          to = { file: index.file, symbol: `${cls}.${use.name}`, via: [] };
      } else {
        const owner = await this.resolveIn(index, suite, use.object.split('.')[0]!);
        if (owner && !owner.symbol) to = await this.project.resolveExport(owner.file, use.name);
        else if (owner?.symbol) {
          // `Class.staticMethod()`, or a method of an imported class
          const method = `${owner.symbol}.${use.name}`;
          if ((await this.project.index(owner.file))?.defs.has(method))
            to = { file: owner.file, symbol: method, via: owner.via };
        }
        to ??= await this.byMethodName(index, use.name);
      }
      if (to && 'inner' in to) this.innerCalls.add(innerCallKey(nodeKey(node), nodeKey(to)));
      if (!to || nodeKey(to) === nodeKey(node)) continue;
      if (!to.symbol && to.file === index.file) continue;
      const written = use.object ? `${use.object}.${use.name}` : use.name;
      const source = index.imports.get(use.object?.split('.')[0] ?? use.name)?.source;
      edges.push(this.edge(node, to, `${from} calls ${written}${source ? ` (from '${source}')` : ''}`));
      // `new C()` runs C's constructor
      const ctor = to.symbol ? `${to.symbol}.constructor` : undefined;
      if (ctor && (await this.project.index(to.file))?.defs.has(ctor))
        edges.push(this.edge(node, { ...to, symbol: ctor }, `${from} constructs ${to.symbol}`));
    }
    return edges;
  }

  /**
   * `obj.m()` on an object of unknown type: a class this module defines or imports that has `m`,
   * else a function of this module that defines an `m` inside it (`this.storage.setValue()` on
   * the object of methods `createStore` returns).
   */
  private async byMethodName(
    index: JsIndex,
    method: string,
  ): Promise<(Resolved & { inner?: string }) | undefined> {
    for (const d of index.module.defs)
      if (d.name.endsWith(`.${method}`)) return { file: index.file, symbol: d.name, via: [] };
    for (const [local] of index.imports) {
      if (!/^[A-Z]/.test(local)) continue;
      const cls = await this.project.resolveName(index.file, local);
      const name = cls?.symbol ? `${cls.symbol}.${method}` : undefined;
      if (cls && name && (await this.project.index(cls.file))?.defs.has(name))
        return { file: cls.file, symbol: name, via: cls.via };
    }
    const outer = index.module.defs.find((d) => d.inner?.includes(method));
    return outer ? { file: index.file, symbol: outer.name, via: [], inner: method } : undefined;
  }
}
