import { nodeKey, type CodeEdge, type CodeNode } from '@suture/core/analysis';
import type { CppProject } from './cpp-project.js';
import type { CppCall, CppDef } from './cpp-summary.js';

/** Names a call can have that are never the project's own function. */
const LIBRARY = new Set(
  (
    'printf fprintf sprintf snprintf malloc calloc realloc free memcpy memmove memset memcmp strlen ' +
    'strcmp strncmp strcpy strncpy strchr strstr assert abort exit sizeof static_cast dynamic_cast ' +
    'reinterpret_cast const_cast move forward make_shared make_unique push_back emplace_back size ' +
    'begin end c_str data empty find insert erase clear get reset swap std'
  ).split(' '),
);
/** GoogleTest's and Unity's assertion macros: their arguments hold the calls, not the macro. */
const ASSERTION = /^(EXPECT|ASSERT|TEST_ASSERT|TEST_FAIL|TEST_IGNORE|RUN_TEST|UNITY_)/;
/** Definitions of one name followed at most: an overloaded or common name is not a lead to everything. */
const MAX_DEFINERS = 4;

/** The C/C++ call graph, edge by edge: a function's calls resolved to definitions. Memoised per node. */
export class CppGraph {
  private readonly memo = new Map<string, Promise<CodeEdge[]>>();

  constructor(readonly project: CppProject) {}

  expand(node: CodeNode): Promise<CodeEdge[]> {
    const key = nodeKey(node);
    let found = this.memo.get(key);
    if (!found) {
      found = this.compute(node);
      this.memo.set(key, found);
    }
    return found;
  }

  /** The definitions the calls on one line of a function lead to (an EXPECT line, an assert). */
  async onLine(node: CodeNode, line: number): Promise<CodeNode[]> {
    const calls = (await this.defsOf(node)).flatMap((d) => d.calls);
    if (calls.length === 0) return [];
    const edges = await this.resolveCalls(
      node,
      calls.filter((c) => c.lines.includes(line)),
    );
    return edges.map((e) => e.to);
  }

  /**
   * Where a symbol is defined, for the ranking and the budget: of several definitions of its name
   * in the file (`XMLNode::DeleteNode`, `XMLDocument::DeleteNode`), the one holding `line`.
   */
  async lines(node: CodeNode, line?: number): Promise<{ line: number; endLine: number } | undefined> {
    const defs = await this.defsOf(node);
    const def = (line ? defs.find((d) => d.line <= line && line <= d.endLine) : undefined) ?? defs[0];
    return def ? { line: def.line, endLine: def.endLine } : undefined;
  }

  /** Every definition of a symbol's name in its file: overloads, and methods of several classes. */
  private async defsOf(node: CodeNode): Promise<CppDef[]> {
    if (!node.symbol) return [];
    return (await this.project.index(node.file))?.defs.get(node.symbol) ?? [];
  }

  private async compute(node: CodeNode): Promise<CodeEdge[]> {
    const index = await this.project.index(node.file);
    if (!index) return [];
    // a whole file (a test program whose case is unknown): every function it defines runs
    const calls: CppCall[] = node.symbol
      ? (await this.defsOf(node)).flatMap((d) => d.calls)
      : index.summary.defs.map((d) => ({ name: d.name, lines: [d.line] }));
    return this.resolveCalls(node, calls);
  }

  private async resolveCalls(node: CodeNode, calls: readonly CppCall[]): Promise<CodeEdge[]> {
    const from = node.symbol?.replace(/^TEST:/, 'TEST ') ?? node.file;
    const edges: CodeEdge[] = [];
    const visible = await this.project.visible(node.file);
    for (const call of calls) {
      if (LIBRARY.has(call.name) || ASSERTION.test(call.name) || call.name === node.symbol) continue;
      const found: Array<{ file: string; symbol: string; via: string }> = [];
      for (const v of visible) {
        if ((await this.project.index(v.file))?.defs.has(call.name)) found.push({ ...v, symbol: call.name });
        if (found.length >= MAX_DEFINERS) break;
      }
      if (found.length === 0)
        for (const file of await this.project.definers(call.name))
          found.push({ file, symbol: call.name, via: `defined in ${file}` });
      // a name a macro built (uriParseUriA): the definition under the macro (URI_FUNC(ParseUri))
      if (found.length === 0)
        for (const base of await this.project.unexpand(node.file, call.name))
          for (const file of await this.project.definers(base))
            found.push({
              file,
              symbol: base,
              via: `${call.name} is built by a macro from ${base}, defined in ${file}`,
            });
      for (const f of found.slice(0, MAX_DEFINERS)) {
        const index = await this.project.index(f.file);
        // a definition found under its expanded name is named by what it was written as
        const symbol = index?.defs.get(f.symbol)?.[0]?.name ?? f.symbol;
        if (f.file === node.file && symbol === node.symbol) continue;
        edges.push({
          to: { file: f.file, symbol },
          role: /\.(h|hh|hpp|hxx)$/.test(f.file) ? 'header' : 'source',
          reason: `${from} calls ${call.name} (${f.via})`,
          cost: f.file === node.file ? 0 : 1,
        });
      }
    }
    return edges;
  }
}
