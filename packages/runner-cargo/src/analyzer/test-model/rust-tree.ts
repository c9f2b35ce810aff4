import type { AssertionFact, SyntaxNode, TestFact, TestFileModel } from '@suture/core/analysis';
import { isTestAttribute } from '../rust-syntax.js';

const ASSERT = /^(?:debug_)?assert(?:_eq|_ne)?$|^assert_matches$/;
const LITERAL = new Set([
  'integer_literal',
  'float_literal',
  'string_literal',
  'char_literal',
  'boolean_literal',
  'raw_string_literal',
]);
const KEYWORDS = new Set(['true', 'false', 'self', 'Self', 'crate', 'super', 'mut', 'ref', 'as', 'in']);

/** Source text without whitespace outside string literals. */
function clean(text: string): string {
  return text.replace(/("(?:[^"\\]|\\.)*")|\s+/g, (m, s: string | undefined) => s ?? '');
}

/** A macro's arguments: the token trees between its top-level commas. */
export function macroArgs(tokens: SyntaxNode): SyntaxNode[][] {
  const args: SyntaxNode[][] = [[]];
  const kids = tokens.children.slice(1, -1);
  for (const k of kids) {
    if (k.type === ',') args.push([]);
    else args[args.length - 1]!.push(k);
  }
  return args.filter((a) => a.length > 0);
}

const textOf = (arg: SyntaxNode[]): string => clean(arg.map((n) => n.text).join(' '));
/** Nothing in it can change: literals and operators only, `-1`, `"x"`, `[1, 2]`. */
function literalOnly(arg: SyntaxNode[]): boolean {
  const leaf = (n: SyntaxNode): boolean =>
    LITERAL.has(n.type) ||
    (n.type === 'token_tree' ? n.namedChildren.every(leaf) : !n.isNamed) ||
    n.type === 'string_content';
  return arg.length > 0 && arg.every(leaf);
}

function assertion(node: SyntaxNode, disarmed: string | undefined): AssertionFact {
  const name = node.childForFieldName('macro')?.text ?? '';
  const tokens = node.namedChildren.find((c) => c.type === 'token_tree');
  const args = tokens ? macroArgs(tokens) : [];
  const names = [
    ...new Set(
      (tokens?.descendantsOfType('identifier') ?? []).map((n) => n.text).filter((n) => !KEYWORDS.has(n)),
    ),
  ];
  const compares = /_(?:eq|ne)$/.test(name);
  const [a, b] = args;
  const constant = compares
    ? !!a && !!b && (textOf(a) === textOf(b) || (literalOnly(a) && literalOnly(b)))
    : !!a && literalOnly(a);
  const out: AssertionFact = { text: clean(node.text), names, constant, ...(disarmed ? { disarmed } : {}) };
  if (compares && a && b) {
    const op = name.endsWith('_ne') ? '!=' : '==';
    const expected = literalOnly(b) ? b : literalOnly(a) ? a : undefined;
    if (expected && !constant) {
      out.form = `@ ${op} $`;
      out.expected = [textOf(expected)];
    }
  }
  return out;
}

/** Statements of a block before `at` that end the function: `return`, `std::process::exit`, `panic!` aside. */
function stopBefore(body: SyntaxNode, at: SyntaxNode): string | undefined {
  for (const s of body.namedChildren) {
    if (s.startIndex >= at.startIndex) return undefined;
    const e = s.type === 'expression_statement' ? s.namedChildren[0] : s;
    if (e?.type === 'return_expression') return 'an early return before it';
    if (
      e?.type === 'if_expression' &&
      e.childForFieldName('condition')?.text === 'true' &&
      e.childForFieldName('consequence')?.descendantsOfType('return_expression').length
    )
      return 'an early return before it';
  }
  return undefined;
}

/** Why an assertion inside `fn` never fails it, when so: a dead `if false`, a closure nobody calls. */
function deadAround(node: SyntaxNode, fnNode: SyntaxNode): string | undefined {
  for (let n = node.parent; n && n.id !== fnNode.id; n = n.parent) {
    if (n.type === 'if_expression' && n.childForFieldName('condition')?.text === 'false')
      return 'it sits in an if false block';
    if (n.type === 'closure_expression') return 'it sits in a closure';
  }
  return undefined;
}

function attrs(fnNode: SyntaxNode): string[] {
  const out: string[] = [];
  for (let s = fnNode.previousNamedSibling; s?.type === 'attribute_item'; s = s.previousNamedSibling)
    out.unshift(s.text);
  return out;
}

/** A function's test fact: its assertions with what disarms them, its `#[ignore]`, its `#[should_panic]`. */
function fact(fnNode: SyntaxNode, name: string): TestFact & { shouldPanic: boolean } {
  const a = attrs(fnNode);
  const shouldPanic = a.some((x) => /^#\[\s*should_panic\b/.test(x));
  const body = fnNode.childForFieldName('body');
  const assertions = (body?.descendantsOfType('macro_invocation') ?? [])
    .filter((m) => ASSERT.test(m.childForFieldName('macro')?.text ?? ''))
    .map((m) => {
      const top =
        body!.namedChildren.find((s) => s.startIndex <= m.startIndex && m.endIndex <= s.endIndex) ?? m;
      const disarmed =
        stopBefore(body!, top) ??
        deadAround(m, fnNode) ??
        (shouldPanic ? 'the test is #[should_panic]: a failing assertion passes it' : undefined);
      return assertion(m, disarmed);
    });
  return { name, assertions, skipped: a.some((x) => /^#\[\s*ignore\b/.test(x)), shouldPanic };
}

export interface RustModel extends TestFileModel {
  tests: Array<TestFact & { shouldPanic: boolean }>;
}

/** The tests of a Rust file (`#[test]` functions, in any inline module) and their assertions. */
export function rustTreeModel(root: SyntaxNode): RustModel {
  const model: RustModel = { tests: [], helpers: [], mocks: [], redefinitions: [] };
  const walk = (list: SyntaxNode, path: string[]): void => {
    for (const item of list.namedChildren) {
      if (item.type === 'function_item') {
        const name = [...path, item.childForFieldName('name')?.text ?? ''].join('::');
        const f = fact(item, name);
        if (attrs(item).some(isTestAttribute)) model.tests.push(f);
        else if (f.assertions.length > 0) model.helpers!.push(f);
      } else if (item.type === 'mod_item') {
        const body = item.childForFieldName('body');
        if (body) walk(body, [...path, item.childForFieldName('name')?.text ?? '']);
      } else if (item.type === 'impl_item') {
        const body = item.childForFieldName('body');
        if (body) walk(body, [...path, item.childForFieldName('type')?.text ?? '']);
      } else if (item.type === 'macro_definition') {
        const name = item.childForFieldName('name')?.text ?? '';
        if (ASSERT.test(name)) model.redefinitions.push(`macro_rules! ${name}`);
      }
    }
  };
  walk(root, []);
  return model;
}
