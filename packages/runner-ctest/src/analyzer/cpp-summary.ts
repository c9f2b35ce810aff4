import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';

export interface CppCall {
  name: string;
  /** 1-based lines it is called on (at most 20). */
  lines: number[];
}

export interface CppDef {
  /**
   * The name calls use: the last part of a qualified name (`Parser::Load` -> `Load`), `TEST:Suite.Name`
   * for a GoogleTest body, the argument of a function-defining macro (`URI_FUNC(ParseUri)` -> `ParseUri`).
   */
  name: string;
  /** The macro its name is built with (`URI_FUNC`), when it is. */
  macro?: string;
  /** 1-based first line (its template header and return type included) and last line. */
  line: number;
  endLine: number;
  calls: CppCall[];
}

/** A function-like `#define NAME(params) body`. */
export interface CppMacro {
  name: string;
  params: string[];
  body: string;
  /** The nearest preprocessor condition it is defined under: `#ifdef NAME` or its `#else`. */
  when?: { name: string; defined: boolean };
}

/** What the analyzer keeps of a C or C++ file: plain data, cached by content across runs. */
export interface CppFile {
  defs: CppDef[];
  includes: Array<{ path: string; angle: boolean }>;
  macros: CppMacro[];
  /** Functions declared without a body (a header's prototypes). */
  decls: string[];
}

const TEST_MACROS = new Set(['TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST', 'TYPED_TEST_P']);
const MAX_LINES = 20;

function functionDeclarator(node: SyntaxNode | null): SyntaxNode | null {
  let d = node;
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  return d;
}

/** The name and macro of a definition's declarator. */
function nameOf(fn: SyntaxNode): { name: string; macro?: string } | undefined {
  const d = functionDeclarator(fn.childForFieldName('declarator'));
  const inner = d?.childForFieldName('declarator');
  if (!d || !inner) return undefined;
  if (TEST_MACROS.has(inner.text)) {
    const params = d.childForFieldName('parameters')?.namedChildren.map((p) => p.text.trim()) ?? [];
    return params.length === 2 ? { name: `TEST:${params[0]}.${params[1]}` } : undefined;
  }
  // `int URI_FUNC(ParseUri)(...)`: a macro builds the name from its argument
  if (inner.type === 'function_declarator') {
    const macro = inner.childForFieldName('declarator')?.text;
    const arg = inner.childForFieldName('parameters')?.namedChildren[0]?.text.trim();
    return arg && macro && /^\w+$/.test(arg) ? { name: arg, macro } : undefined;
  }
  const name = inner.text.split('::').pop()?.replace(/<.*$/s, '').trim();
  return name && /^~?\w+$|^operator\W+$/.test(name) ? { name } : undefined;
}

/** The callee name of a call: `f()`, `ns::f()`, `obj.m()`, `p->m()`, `f<T>()`, `MACRO(Name)()`. */
function calleeOf(call: SyntaxNode): string | undefined {
  const fn = call.childForFieldName('function');
  if (!fn) return undefined;
  if (fn.type === 'field_expression') return fn.childForFieldName('field')?.text;
  if (fn.type === 'template_function') return fn.childForFieldName('name')?.text.split('::').pop();
  if (fn.type === 'call_expression') return fn.childForFieldName('arguments')?.namedChildren[0]?.text;
  const name = fn.text.split('::').pop();
  return name && /^~?\w+$/.test(name) ? name : undefined;
}

const CONDITIONALS = new Set(['preproc_ifdef', 'preproc_if', 'preproc_elif', 'preproc_else']);

/**
 * The condition of the nearest `#ifdef X`, `#ifndef X`, `#if defined(X)`, `#if !defined X` or
 * `#if X` around a node, negated in its `#else`; undefined for any other condition or none.
 */
function conditionOf(node: SyntaxNode): CppMacro['when'] {
  let at = node.parent;
  while (at && !CONDITIONALS.has(at.type)) at = at.parent;
  if (!at) return undefined;
  const negate = at.type === 'preproc_else';
  const cond = negate ? at.parent : at;
  let when: CppMacro['when'];
  if (cond?.type === 'preproc_ifdef') {
    const name = cond.childForFieldName('name')?.text;
    if (name) when = { name, defined: cond.child(0)?.type === '#ifdef' };
  } else if (cond?.type === 'preproc_if' || cond?.type === 'preproc_elif') {
    const text = cond.childForFieldName('condition')?.text.trim() ?? '';
    const m = /^(!?)\s*(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\w+))$/.exec(text);
    const name = m?.[2] ?? m?.[3] ?? m?.[4];
    if (m && name && !/^\d/.test(name)) when = { name, defined: m[1] !== '!' };
  }
  return when && negate ? { name: when.name, defined: !when.defined } : when;
}

/** Reads a parsed C or C++ file into a `CppFile`, in time linear in its size. */
export function summarizeCpp(tree: SyntaxTree): CppFile {
  const defs: Array<{ def: CppDef; start: number; end: number }> = [];
  for (const fn of tree.rootNode.descendantsOfType('function_definition')) {
    const named = nameOf(fn);
    const body = fn.childForFieldName('body');
    if (!named || !body) continue;
    const outer = fn.parent?.type === 'template_declaration' ? fn.parent : fn;
    defs.push({
      def: {
        name: named.name,
        ...(named.macro ? { macro: named.macro } : {}),
        line: outer.startPosition.row + 1,
        endLine: fn.endPosition.row + 1,
        calls: [],
      },
      start: body.startPosition.row,
      end: body.endPosition.row,
    });
  }
  // each row to the innermost definition holding it (a class's inline method after the class)
  const rows = tree.rootNode.endPosition.row;
  const owners = new Array<CppDef | null>(rows + 1).fill(null);
  for (const d of [...defs].sort((a, b) => a.start - b.start || b.end - a.end))
    for (let r = d.start; r <= d.end && r <= rows; r++) owners[r] = d.def;
  const calls = new Map<CppDef, Map<string, CppCall>>();
  for (const call of tree.rootNode.descendantsOfType('call_expression')) {
    const owner = owners[call.startPosition.row];
    const name = calleeOf(call);
    if (!owner || !name) continue;
    let m = calls.get(owner);
    if (!m) calls.set(owner, (m = new Map()));
    const line = call.startPosition.row + 1;
    const c = m.get(name);
    if (!c) m.set(name, { name, lines: [line] });
    else if (!c.lines.includes(line) && c.lines.length < MAX_LINES) c.lines.push(line);
  }
  for (const d of defs) d.def.calls = [...(calls.get(d.def)?.values() ?? [])];

  const includes = tree.rootNode.descendantsOfType('preproc_include').flatMap((inc) => {
    const path = inc.childForFieldName('path');
    if (path?.type === 'string_literal') return [{ path: path.text.slice(1, -1), angle: false }];
    if (path?.type === 'system_lib_string') return [{ path: path.text.slice(1, -1), angle: true }];
    return [];
  });
  const macros = tree.rootNode.descendantsOfType('preproc_function_def').flatMap((m) => {
    const name = m.childForFieldName('name')?.text;
    const params = (m.childForFieldName('parameters')?.namedChildren ?? []).map((p) => p.text);
    const body = m.childForFieldName('value')?.text.trim() ?? '';
    const when = conditionOf(m);
    return name ? [{ name, params, body, ...(when ? { when } : {}) }] : [];
  });
  const decls = new Set<string>();
  for (const decl of tree.rootNode.descendantsOfType(['declaration', 'field_declaration'])) {
    const d = functionDeclarator(decl.childForFieldName('declarator'));
    const name = d?.childForFieldName('declarator')?.text.split('::').pop();
    if (name && /^~?\w+$/.test(name)) decls.add(name);
  }
  return { defs: defs.map((d) => d.def), includes, macros, decls: [...decls] };
}

/**
 * The name a function-defining macro gives its argument (`#define URI_FUNC(x) uri##x##A` makes
 * `ParseUri` into `uriParseUriA`), following macros that call macros; undefined when the body is
 * not a name pasted together.
 */
export function expandName(
  macro: string,
  arg: string,
  macros: ReadonlyMap<string, CppMacro>,
  depth = 0,
): string | undefined {
  const m = macros.get(macro);
  if (!m || m.params.length !== 1 || depth > 4) return undefined;
  const param = m.params[0]!;
  const body = m.body.replace(new RegExp(`\\b${param}\\b`, 'g'), arg).replace(/\s*##\s*/g, '');
  if (/^[\w\u0001]+$/.test(body)) return body;
  const call = /^(\w+)\s*\(\s*([\w\u0001]+)\s*\)$/.exec(body);
  return call ? expandName(call[1]!, call[2]!, macros, depth + 1) : undefined;
}
