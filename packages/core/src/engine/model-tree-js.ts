import { jsForm } from './form-js.js';
import type { Node } from './model-grammar.js';
import { assertionFacts, cleanText, collect, same, type Dialect, type Found } from './model-tree.js';
import type { Definition, FileModelDetail, TestFact } from './test-model.js';

const TEST = /^(?:it|test|xit|xtest|fit)$/;
const SUITE = /^(?:describe|xdescribe|fdescribe|suite)$/;
const MOCK = /^(?:jest|vi)\.(?:mock|doMock|spyOn|unstable_mockModule|replaceProperty|stubGlobal)$/;
const MOCK_METHOD = /\.mock(?:Implementation|ReturnValue|ResolvedValue|RejectedValue)\w*$/;
const THROWS = /^(?:toThrow\w*|throws|rejects|toThrowError\w*)$/;
const ASSERTION_LIKE = /^(?:expect|assert|test|it|describe|fail)$/;
const FUNCTIONS = [
  'arrow_function',
  'function_expression',
  'function',
  'function_declaration',
  'generator_function',
  'generator_function_declaration',
];

const callee = (call: Node): Node | null => call.childForFieldName('function');
const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];

/** `it.skip.each(...)` -> base `it` and modifiers `skip`, `each`. */
function chainOf(fn: Node | null): { base: string; mods: string[] } {
  const mods: string[] = [];
  let n = fn;
  while (n && (n.type === 'member_expression' || n.type === 'call_expression')) {
    if (n.type === 'member_expression') {
      mods.unshift(n.childForFieldName('property')!.text);
      n = n.childForFieldName('object');
    } else n = callee(n);
  }
  return { base: n?.type === 'identifier' ? n.text : '', mods };
}

function truth(n: Node): boolean | undefined {
  switch (n.type) {
    case 'true':
      return true;
    case 'false':
    case 'null':
      return false;
    case 'undefined':
      return false;
    case 'identifier':
      return n.text === 'undefined' ? false : undefined;
    case 'number':
      return Number(n.text.replace(/_/g, '')) !== 0;
    case 'string':
      return n.text.length > 2;
    case 'parenthesized_expression':
      return n.namedChildren[0] ? truth(n.namedChildren[0]) : undefined;
    case 'unary_expression': {
      const op = n.childForFieldName('operator')?.text;
      if (op === 'void') return false;
      const v = truth(n.childForFieldName('argument')!);
      return op === '!' && v !== undefined ? !v : undefined;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text;
      const l = n.childForFieldName('left')!;
      const r = n.childForFieldName('right')!;
      if (op === '||') return truth(l) === true || truth(r) === true ? true : undefined;
      if (op === '&&') return truth(l) === false || truth(r) === false ? false : undefined;
      if (/^[=!]==?$/.test(op ?? '') && same(l, r, JS)) return op!.startsWith('=');
      return undefined;
    }
    default:
      return undefined;
  }
}

function isStop(s: Node): string | undefined {
  if (['return_statement', 'break_statement', 'continue_statement'].includes(s.type)) return cleanText(s, JS);
  const e = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  if (e?.type === 'call_expression' && /^process\.(?:exit|abort|kill)$/.test(callee(e)?.text ?? ''))
    return cleanText(e, JS);
  if (s.type === 'if_statement' && truth(s.childForFieldName('condition')!) === true) {
    const then = s.childForFieldName('consequence')!;
    const stop =
      then.type === 'statement_block' ? then.namedChildren.map(isStop).find(Boolean) : isStop(then);
    if (stop) return `if ${cleanText(s.childForFieldName('condition')!, JS)} ${stop}`;
  }
  return undefined;
}

const hasCheck = (n: Node): boolean =>
  collect(
    n,
    (x) =>
      x.type === 'throw_statement' ||
      (x.type === 'call_expression' && /^(?:expect|assert)$/.test(chainOf(callee(x)).base)),
  ).length > 0;

function guard(parent: Node, child: Node): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  if (
    parent.type === 'if_statement' &&
    child.id === field('consequence')?.id &&
    truth(field('condition')!) === false
  )
    return `it sits in a branch that never runs (\`if ${cleanText(field('condition')!, JS)}\`)`;
  if (
    parent.type === 'else_clause' &&
    parent.parent?.type === 'if_statement' &&
    truth(parent.parent.childForFieldName('condition')!) === true
  )
    return 'it sits in an else branch that never runs';
  if (
    (parent.type === 'while_statement' || parent.type === 'for_statement') &&
    child.id === field('body')?.id
  ) {
    const cond = field('condition');
    if (cond && truth(cond.type === 'expression_statement' ? cond.namedChildren[0]! : cond) === false)
      return 'it sits in a loop that never runs';
  }
  if (parent.type === 'try_statement' && child.id === field('body')?.id) {
    const handler = field('handler');
    if (handler && !hasCheck(handler)) return 'a try block swallows its failure';
    const finalizer = field('finalizer');
    if (finalizer && collect(finalizer, (n) => n.type === 'return_statement').length)
      return 'a `return` in its `finally` discards its failure';
  }
  return undefined;
}

export const JS: Dialect = {
  comments: new Set(['comment', 'html_comment']),
  blocks: new Set(['statement_block', 'program']),
  functions: new Set(FUNCTIONS),
  names: new Set(['identifier', 'property_identifier', 'shorthand_property_identifier']),
  opaque: new Set(['string_fragment', 'escape_sequence', 'regex_pattern']),
  calls: new Set(['call_expression', 'new_expression']),
  stop: isStop,
  truth,
  guard,
  form: jsForm,
  functionName: (f) => {
    const own = f.childForFieldName('name')?.text;
    if (own) return own;
    const holder = f.parent?.type === 'parenthesized_expression' ? f.parent.parent : f.parent;
    if (holder?.type === 'variable_declarator') return holder.childForFieldName('name')?.text;
    if (holder?.type === 'assignment_expression') return holder.childForFieldName('left')?.text;
    return undefined;
  },
  callee: (call) => {
    const f = callee(call) ?? call.childForFieldName('constructor');
    return f?.type === 'member_expression'
      ? f.childForFieldName('property')?.text
      : f?.type === 'identifier'
        ? f.text
        : undefined;
  },
};

/** The top of an `expect(...)` chain (`expect(x).not.toBe(y)` from its `expect(x)`) and the calls along it. */
function chainUp(start: Node): { top: Node; calls: Node[] } {
  const calls: Node[] = [];
  let n = start;
  for (let p = n.parent; p; n = p, p = p.parent) {
    if (p.type === 'member_expression' && p.childForFieldName('object')?.id === n.id) continue;
    if (p.type === 'call_expression' && callee(p)?.id === n.id) calls.push(p);
    else break;
  }
  return { top: n, calls };
}

function assertionsIn(body: Node): Found[] {
  const found: Found[] = [];
  for (const c of collect(body, (x) => x.type === 'call_expression' || x.type === 'if_statement')) {
    if (c.type === 'if_statement') {
      const then = c.childForFieldName('consequence')!;
      const fails = [then, ...then.namedChildren].some(
        (s) =>
          s.type === 'throw_statement' ||
          (s.type === 'expression_statement' &&
            /^(?:process\.exit\(\s*[^0\s)]|(?:assert\.)?fail\()/.test(s.text)),
      );
      if (fails)
        found.push({
          node: c.childForFieldName('condition')!,
          subjects: [c.childForFieldName('condition')!],
        });
      continue;
    }
    const fn = callee(c)!;
    if (fn.type === 'identifier' && fn.text === 'expect') {
      const { top, calls } = chainUp(c);
      const matchers = calls.map((m) =>
        callee(m)?.type === 'member_expression' ? callee(m)!.childForFieldName('property')!.text : '',
      );
      const subject = args(c);
      const expected = calls.flatMap(args);
      found.push({
        node: top,
        subjects: [...subject, ...expected],
        constant: subject.length === 1 && expected.length === 1 && same(subject[0], expected[0], JS),
        ...(top.id === c.id ? { empty: 'it calls no matcher and checks nothing' } : {}),
        wrapsFailure: matchers.some((m) => THROWS.test(m)),
      });
      continue;
    }
    const { base, mods } = chainOf(fn);
    if (base !== 'assert' || collect(fn, (x) => x.type === 'call_expression').length) continue;
    const a = args(c);
    const method = mods.at(-1) ?? 'ok';
    found.push({
      node: c,
      subjects: a,
      constant:
        (/^(?:ok|assert)$/.test(method) && a[0] !== undefined && truth(a[0]) === true) ||
        (/equal/i.test(method) && a.length >= 2 && same(a[0], a[1], JS)),
      wrapsFailure: THROWS.test(method),
    });
  }
  return found;
}

interface Entry {
  name: string;
  skipped: boolean;
  only: boolean;
  body: Node;
}

function testsOf(root: Node): Entry[] {
  const out: Entry[] = [];
  for (const c of collect(root, (x) => x.type === 'call_expression')) {
    const { base, mods } = chainOf(callee(c));
    if (!TEST.test(base)) continue;
    const [title, fn] = args(c);
    if (!title || !/^(?:string|template_string)$/.test(title.type) || !fn || !FUNCTIONS.includes(fn.type))
      continue;
    const suites: Array<{ title: string; skipped: boolean; only: boolean }> = [];
    for (let p = c.parent; p; p = p.parent) {
      if (p.type !== 'call_expression') continue;
      const s = chainOf(callee(p));
      const [t] = args(p);
      if (SUITE.test(s.base) && t)
        suites.unshift({
          title: t.text.slice(1, -1),
          skipped: s.base === 'xdescribe' || s.mods.includes('skip'),
          only: s.base === 'fdescribe' || s.mods.includes('only'),
        });
    }
    out.push({
      name: [...suites.map((s) => s.title), title.text.slice(1, -1)].join(' > '),
      skipped:
        base.startsWith('x') ||
        mods.some((m) => /^(?:skip|todo|failing)$/.test(m)) ||
        suites.some((s) => s.skipped),
      only: base === 'fit' || mods.includes('only') || suites.some((s) => s.only),
      body: fn.childForFieldName('body')!,
    });
  }
  return out;
}

function definitionsAndImports(
  root: Node,
  bodies: readonly Node[],
): { definitions: Definition[]; imports: Record<string, string> } {
  const imports: Record<string, string> = {};
  for (const s of collect(root, (n) => n.type === 'import_statement')) {
    const from = s.childForFieldName('source')?.text.slice(1, -1) ?? '';
    for (const id of collect(s, (n) => n.type === 'identifier' && n.parent?.type !== 'import_specifier'))
      imports[id.text] = from;
    for (const spec of collect(s, (n) => n.type === 'import_specifier'))
      imports[(spec.childForFieldName('alias') ?? spec.childForFieldName('name'))!.text] =
        `${from}:${spec.childForFieldName('name')!.text}`;
  }
  for (const d of collect(
    root,
    (n) => n.type === 'variable_declarator' && /^require\(/.test(n.childForFieldName('value')?.text ?? ''),
  )) {
    const from = /^require\(\s*["'`]([^"'`]+)/.exec(d.childForFieldName('value')!.text)?.[1] ?? '';
    for (const id of collect(d.childForFieldName('name')!, (n) =>
      /^(?:identifier|shorthand_property_identifier_pattern)$/.test(n.type),
    ))
      imports[id.text] = from;
  }
  const definitions: Definition[] = [];
  const bind = (name: string | undefined, node: Node, local: boolean): void => {
    if (!name || (local && !(name in imports) && !ASSERTION_LIKE.test(name))) return;
    definitions.push({
      name,
      text: cleanText(node, JS)
        .split(/\s*[{=]/)[0]!
        .slice(0, 80),
    });
  };
  const scan = (scope: Node, local: boolean): void => {
    for (const raw of scope.namedChildren) {
      const s = raw.type === 'export_statement' ? (raw.childForFieldName('declaration') ?? raw) : raw;
      if (/^(?:function_declaration|generator_function_declaration|class_declaration)$/.test(s.type))
        bind(s.childForFieldName('name')?.text, s, local);
      if (s.type === 'lexical_declaration' || s.type === 'variable_declaration')
        for (const d of s.namedChildren.filter((x) => x.type === 'variable_declarator'))
          if (
            !/^require\(/.test(d.childForFieldName('value')?.text ?? '') &&
            d.childForFieldName('name')?.type === 'identifier'
          )
            bind(d.childForFieldName('name')!.text, d, local);
    }
  };
  scan(root, false);
  for (const b of bodies)
    for (const block of collect(b, (n) => n.type === 'statement_block')) scan(block, true);
  for (const a of collect(root, (n) => n.type === 'assignment_expression')) {
    const left = a.childForFieldName('left')!;
    const name = left.type === 'member_expression' ? left.childForFieldName('property')!.text : left.text;
    if (
      ASSERTION_LIKE.test(name) &&
      (left.type === 'identifier' || /^(?:global|globalThis|window)\./.test(left.text))
    )
      bind(name, a, false);
  }
  for (const c of collect(
    root,
    (n) => n.type === 'call_expression' && /^expect\.extend$/.test(callee(n)?.text ?? ''),
  ))
    definitions.push({ name: 'expect', text: cleanText(c, JS).slice(0, 80) });
  for (const spec of collect(root, (n) => n.type === 'import_specifier' && !!n.childForFieldName('alias')))
    bind(spec.childForFieldName('alias')!.text, spec, true);
  return { definitions, imports };
}

/** The tests of a Jest, Vitest or node:test file (or the file itself, as one test, when it has none). */
export function jsTreeModel(root: Node): FileModelDetail {
  const entries = testsOf(root);
  const only = entries.some((e) => e.only);
  const tests: TestFact[] = entries.map((e) => ({
    name: e.name,
    skipped: e.skipped || (only && !e.only),
    assertions: assertionFacts(assertionsIn(e.body), e.body, JS),
  }));
  if (entries.length === 0)
    tests.push({ name: '(file)', skipped: false, assertions: assertionFacts(assertionsIn(root), root, JS) });
  const mocks = [
    ...collect(
      root,
      (n) =>
        n.type === 'call_expression' &&
        (MOCK.test(callee(n)?.text ?? '') ||
          MOCK_METHOD.test(callee(n)?.text ?? '') ||
          /^Object\.defineProperty$/.test(callee(n)?.text ?? '')),
    ),
    ...collect(
      root,
      (n) =>
        n.type === 'assignment_expression' &&
        n.childForFieldName('left')?.type === 'member_expression' &&
        !/^(?:this|module|exports|global|globalThis|window)\b/.test(n.childForFieldName('left')!.text),
    ),
  ].map((n) => cleanText(n, JS));
  const { definitions, imports } = definitionsAndImports(
    root,
    entries.map((e) => e.body),
  );
  return { tests, mocks, redefinitions: definitions.map((d) => d.text), definitions, imports };
}
