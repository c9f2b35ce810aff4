import { createRequire } from 'node:module';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';

// loaded by the first parse, not when the runner is built: a green run without tests to locate never parses
const grammar = (): Grammar => createRequire(import.meta.url)('tree-sitter-go') as Grammar;
/** A tree-sitter parser for Go keeping the last `keep` trees by content. */
export const createGoCache = (keep = 64): ParseCache => new ParseCache(grammar, keep);

/** A call in a function body: `Total(...)` (no qualifier), `strings.Count(...)`, `c.Total(...)`. */
export interface GoCall {
  name: string;
  /** What is before the dot: a package alias, a variable, a field. */
  qualifier?: string;
  line: number;
}

/** A function or method of a Go file. */
export interface GoFunc {
  /** `Total` for a function, `Cart.Total` for a method of `Cart` (pointer or not). */
  name: string;
  receiver?: string;
  line: number;
  endLine: number;
  calls: GoCall[];
  /** String literals of the body with their lines (subtest names of a table, `t.Run` titles). */
  strings: Array<{ value: string; line: number }>;
}

/** What the analyzer keeps of a Go file: plain JSON data. */
export interface GoFile {
  package: string;
  /** Import alias (or the path's last element) to import path. */
  imports: Record<string, string>;
  funcs: GoFunc[];
  /** Types the file declares, with the method names of an interface. */
  types: Array<{ name: string; line: number; endLine: number; interfaceMethods?: string[] }>;
}

const kids = (n: SyntaxNode): SyntaxNode[] => n.namedChildren;

function descend(n: SyntaxNode, visit: (n: SyntaxNode) => void): void {
  const stack = [n];
  for (let x = stack.pop(); x; x = stack.pop()) {
    visit(x);
    for (let i = x.namedChildCount - 1; i >= 0; i--) stack.push(x.namedChild(i)!);
  }
}

/** `Cart` for `(c *Cart)`, `(c Cart[T])`, `(Cart)`. */
function receiverType(receiver: SyntaxNode | null): string | undefined {
  const param = receiver ? kids(receiver)[0] : undefined;
  let t = param?.childForFieldName('type') ?? null;
  while (t && (t.type === 'pointer_type' || t.type === 'generic_type' || t.type === 'parenthesized_type'))
    t = t.type === 'generic_type' ? t.childForFieldName('type') : (kids(t)[0] ?? null);
  return t?.type === 'type_identifier' ? t.text : undefined;
}

/** The unquoted value of an interpreted or raw string literal. */
export function stringValue(n: SyntaxNode): string | undefined {
  if (n.type === 'raw_string_literal') return n.text.slice(1, -1);
  if (n.type !== 'interpreted_string_literal') return undefined;
  try {
    return JSON.parse(n.text) as string;
  } catch {
    return n.text.slice(1, -1);
  }
}

function summarizeFunc(fn: SyntaxNode): GoFunc {
  const receiver =
    fn.type === 'method_declaration' ? receiverType(fn.childForFieldName('receiver')) : undefined;
  const own = fn.childForFieldName('name')?.text ?? '';
  const calls: GoCall[] = [];
  const strings: GoFunc['strings'] = [];
  const body = fn.childForFieldName('body');
  if (body)
    descend(body, (n) => {
      if (n.type === 'call_expression') {
        const f = n.childForFieldName('function');
        const line = n.startPosition.row + 1;
        if (f?.type === 'identifier') calls.push({ name: f.text, line });
        else if (f?.type === 'selector_expression') {
          const operand = f.childForFieldName('operand')!;
          calls.push({
            name: f.childForFieldName('field')!.text,
            qualifier: operand.type === 'identifier' ? operand.text : operand.text.split('.').at(-1)!,
            line,
          });
        } else if (f?.type === 'generic_type' || f?.type === 'index_expression') {
          const base = kids(f)[0];
          if (base?.type === 'identifier') calls.push({ name: base.text, line });
        }
      }
      const value = stringValue(n);
      if (value !== undefined) strings.push({ value, line: n.startPosition.row + 1 });
    });
  return {
    name: receiver ? `${receiver}.${own}` : own,
    ...(receiver ? { receiver } : {}),
    line: fn.startPosition.row + 1,
    endLine: fn.endPosition.row + 1,
    calls,
    strings,
  };
}

/** The functions, methods, types and imports of a parsed Go file. */
export function summarizeGo(tree: SyntaxTree): GoFile {
  const out: GoFile = { package: '', imports: {}, funcs: [], types: [] };
  for (const top of kids(tree.rootNode)) {
    if (top.type === 'package_clause') out.package = kids(top)[0]?.text ?? '';
    else if (top.type === 'import_declaration')
      descend(top, (n) => {
        if (n.type !== 'import_spec') return;
        const path = stringValue(n.childForFieldName('path')!) ?? '';
        const alias =
          n.childForFieldName('name')?.text ??
          path
            .split('/')
            .at(-1)!
            .replace(/^go-|\.v\d+$/g, '');
        out.imports[alias] = path;
      });
    else if (top.type === 'function_declaration' || top.type === 'method_declaration')
      out.funcs.push(summarizeFunc(top));
    else if (top.type === 'type_declaration')
      for (const spec of kids(top).filter((k) => k.type === 'type_spec' || k.type === 'type_alias')) {
        const type = spec.childForFieldName('type');
        out.types.push({
          name: spec.childForFieldName('name')?.text ?? '',
          line: spec.startPosition.row + 1,
          endLine: spec.endPosition.row + 1,
          ...(type?.type === 'interface_type'
            ? {
                interfaceMethods: kids(type)
                  .filter((m) => m.type === 'method_elem')
                  .map((m) => m.childForFieldName('name')!.text),
              }
            : {}),
        });
      }
  }
  return out;
}
