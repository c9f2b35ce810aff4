import { createRequire } from 'node:module';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';

/** One parser for every Rust file the analyzer reads, loaded at the first parse. */
export function rustParser(maxEntries = 2000): ParseCache {
  return new ParseCache(() => createRequire(import.meta.url)('tree-sitter-rust') as Grammar, maxEntries);
}

/** A function of a Rust file: free, in an inline `mod`, in an `impl` or a `trait`. */
export interface RustFunction {
  /** Its path inside the file: `add`, `tests::adds`, `Cart::total`, `Shape::area`. */
  name: string;
  /** The module path inside the file (`tests` for a function in an inline `mod tests`). */
  module: string[];
  /** The type of its `impl` or `trait`, when it is a method. */
  owner?: string;
  /** The trait an `impl Trait for Type` implements. */
  trait?: string;
  /** 1-based first line of its definition (the `fn`, not its attributes) and last line. */
  line: number;
  endLine: number;
  /** 1-based line of its first attribute, when it has attributes. */
  attrLine?: number;
  /** Its attributes' text: `#[test]`, `#[ignore]`, `#[should_panic(expected = "x")]`. */
  attributes: string[];
  /** Names it calls: `helper`, `Circle::new` as `new` with its qualifier, `self.side()` as `side`. */
  calls: Array<{ name: string; qualifier?: string; line: number }>;
}

/** A `mod name;` or `mod name { ... }` of a file. */
export interface RustModule {
  name: string;
  /** The module path of its parent inside the file. */
  parent: string[];
  inline: boolean;
  /** Its `#[path = "..."]`, when given. */
  path?: string;
  line: number;
}

export interface RustFileSummary {
  functions: RustFunction[];
  modules: RustModule[];
  /** The paths its `use` declarations bring in, as written: `crate::shapes::Area`. */
  uses: string[];
}

/** Does this attribute mark a test (`#[test]`, `#[tokio::test]`, `#[rstest]`)? */
export function isTestAttribute(attr: string): boolean {
  return /^#\[\s*(?:[\w]+\s*::\s*)*(?:test|rstest|test_case)\b/.test(attr);
}

/** The attributes written right before `node` (its preceding `attribute_item` siblings). */
function attributesOf(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let s = node.previousNamedSibling; s && s.type === 'attribute_item'; s = s.previousNamedSibling)
    out.unshift(s);
  return out;
}

function callsIn(body: SyntaxNode): RustFunction['calls'] {
  const calls: RustFunction['calls'] = [];
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function');
      const line = n.startPosition.row + 1;
      if (f?.type === 'identifier') calls.push({ name: f.text, line });
      else if (f?.type === 'scoped_identifier') {
        const name = f.childForFieldName('name')?.text;
        const path = f.childForFieldName('path')?.text;
        if (name) calls.push({ name, ...(path ? { qualifier: path } : {}), line });
      } else if (f?.type === 'field_expression') {
        const name = f.childForFieldName('field')?.text;
        if (name) calls.push({ name, line });
      } else if (f?.type === 'generic_function') {
        const inner = f.childForFieldName('function');
        const name =
          inner?.type === 'scoped_identifier' ? inner.childForFieldName('name')?.text : inner?.text;
        if (name) calls.push({ name, line });
      }
    } else if (n.type === 'macro_invocation') {
      // a macro's arguments are tokens: `assert_eq!(add(2, 3), 5)` calls add
      const tokens = n.namedChildren.find((c) => c.type === 'token_tree');
      if (tokens) {
        const kids = tokens.children;
        kids.forEach((k, i) => {
          if (
            k.type === 'identifier' &&
            kids[i + 1]?.type === 'token_tree' &&
            kids[i + 1]!.text.startsWith('(')
          )
            calls.push({ name: k.text, line: k.startPosition.row + 1 });
        });
      }
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(body);
  return calls;
}

function typeName(node: SyntaxNode | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'generic_type') return typeName(node.childForFieldName('type'));
  if (node.type === 'scoped_type_identifier') return node.childForFieldName('name')?.text;
  return node.text.replace(/<.*$/s, '');
}

/** What a Rust file defines, calls and uses: the analyzer's map of it. */
export function summarizeRust(tree: SyntaxTree): RustFileSummary {
  const out: RustFileSummary = { functions: [], modules: [], uses: [] };
  const walk = (list: SyntaxNode, module: string[], owner?: string, trait?: string): void => {
    for (const item of list.namedChildren) {
      if (item.type === 'function_item' || item.type === 'function_signature_item') {
        const name = item.childForFieldName('name')?.text;
        const body = item.childForFieldName('body');
        if (!name) continue;
        const attrs = attributesOf(item);
        out.functions.push({
          name: [...module, ...(owner ? [owner] : []), name].join('::'),
          module,
          ...(owner ? { owner } : {}),
          ...(trait ? { trait } : {}),
          line: item.startPosition.row + 1,
          endLine: item.endPosition.row + 1,
          ...(attrs[0] ? { attrLine: attrs[0].startPosition.row + 1 } : {}),
          attributes: attrs.map((a) => a.text),
          calls: body ? callsIn(body) : [],
        });
      } else if (item.type === 'mod_item') {
        const name = item.childForFieldName('name')?.text;
        if (!name) continue;
        const body = item.childForFieldName('body');
        const pathAttr = attributesOf(item)
          .map((a) => /^#\[\s*path\s*=\s*"([^"]+)"\s*\]$/.exec(a.text)?.[1])
          .find(Boolean);
        out.modules.push({
          name,
          parent: module,
          inline: !!body,
          ...(pathAttr ? { path: pathAttr } : {}),
          line: item.startPosition.row + 1,
        });
        if (body) walk(body, [...module, name]);
      } else if (item.type === 'impl_item') {
        const body = item.childForFieldName('body');
        const type = typeName(item.childForFieldName('type'));
        const traitName = typeName(item.childForFieldName('trait'));
        if (body && type) walk(body, module, type, traitName);
      } else if (item.type === 'trait_item') {
        const body = item.childForFieldName('body');
        const name = item.childForFieldName('name')?.text;
        if (body && name) walk(body, module, name, name);
      } else if (item.type === 'use_declaration') {
        const arg = item.childForFieldName('argument');
        if (arg) out.uses.push(arg.text.replace(/\s+/g, ''));
      }
    }
  };
  walk(tree.rootNode, []);
  return out;
}
