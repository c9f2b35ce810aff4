import { jsForm } from './js-form.js';
import type { PlainNode as Node } from '@suture/core/analysis';
import {
  assertionFacts,
  checkingUnits,
  cleanText,
  collect,
  deadBranch,
  helperCalls,
  same,
  type Constants,
  type Dialect,
  type Found,
  type Unit,
} from '@suture/core/analysis';
import { definitionsAndImports, jsMocks } from './js-defs.js';
import { args, callee, chainOf, FUNCTIONS, testsOf } from './js-tests.js';
import { jsBindings, jsCases } from './js-names.js';
import { fileConstants, foldComparison, NO_CONSTANTS, withLocals } from '@suture/core/analysis';
import type { FileModelDetail, TestFact } from '@suture/core/analysis';

const THROWS = /^(?:toThrow\w*|throws|rejects|toThrowError\w*)$/;

const literalValue = (x: Node): number | string | undefined =>
  x.type === 'number'
    ? Number(x.text.replace(/_/g, ''))
    : x.type === 'string'
      ? x.text.slice(1, -1)
      : undefined;

function truth(n: Node, k: Constants): boolean | undefined {
  switch (n.type) {
    case 'true':
      return true;
    case 'false':
    case 'null':
      return false;
    case 'undefined':
      return false;
    case 'identifier': {
      // a top-level `const DEBUG = false`, read once: its own value names no constant
      const value = k.get(n.text);
      return n.text === 'undefined' ? false : value ? truth(value, NO_CONSTANTS) : undefined;
    }
    case 'number':
      return Number(n.text.replace(/_/g, '')) !== 0;
    case 'string':
      return n.text.length > 2;
    case 'parenthesized_expression':
      return n.namedChildren[0] ? truth(n.namedChildren[0], k) : undefined;
    case 'unary_expression': {
      const op = n.childForFieldName('operator')?.text;
      if (op === 'void') return false;
      const v = truth(n.childForFieldName('argument')!, k);
      return op === '!' && v !== undefined ? !v : undefined;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text;
      const l = n.childForFieldName('left')!;
      const r = n.childForFieldName('right')!;
      if (op === '||') return truth(l, k) === true || truth(r, k) === true ? true : undefined;
      if (op === '&&') return truth(l, k) === false || truth(r, k) === false ? false : undefined;
      if (/^[=!]==?$/.test(op ?? '') && same(l, r, JS)) return op!.startsWith('=');
      const [a, b] = [l, r].map((v) => literalValue(v.type === 'identifier' ? (k.get(v.text) ?? v) : v));
      return a !== undefined && b !== undefined ? foldComparison(op ?? '', a, b) : undefined;
    }
    default:
      return undefined;
  }
}

function isStop(s: Node, k: Constants): string | undefined {
  if (['return_statement', 'break_statement', 'continue_statement'].includes(s.type)) return cleanText(s, JS);
  const e = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  if (e?.type === 'call_expression' && /^process\.(?:exit|abort|kill)$/.test(callee(e)?.text ?? ''))
    return cleanText(e, JS);
  if (s.type === 'if_statement' && truth(s.childForFieldName('condition')!, k) === true) {
    const then = s.childForFieldName('consequence')!;
    const stop =
      then.type === 'statement_block'
        ? then.namedChildren.map((c) => isStop(c, k)).find(Boolean)
        : isStop(then, k);
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

function guard(parent: Node, child: Node, k: Constants): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  const dead = deadBranch(parent, child, (n) => truth(n, k), JS);
  if (dead) return dead;
  if (parent.type === 'for_in_statement' && child.id === field('body')?.id) {
    // `for (const x of [])`, or of a top-level const that is `[]`
    const right = field('right')!;
    const over = right.type === 'identifier' ? (k.get(right.text) ?? right) : right;
    if (over.type === 'array' && over.namedChildCount === 0)
      return `it sits in a loop that never runs (\`for ... of ${cleanText(right, JS)}\`)`;
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
  bindings: jsBindings,
  isVariable: (n) => n.type === 'identifier',
  discards: (use) =>
    use.parent?.type === 'unary_expression' && use.parent.childForFieldName('operator')?.text === 'void',
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

function assertionsIn(body: Node, k: Constants): Found[] {
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
        (/^(?:ok|assert)$/.test(method) && a[0] !== undefined && truth(a[0], k) === true) ||
        (/equal/i.test(method) && a.length >= 2 && same(a[0], a[1], JS)),
      wrapsFailure: THROWS.test(method),
    });
  }
  return found;
}

/** The file's named functions outside its tests: each is a helper when it checks something. */
function unitsOf(root: Node, bodies: readonly Node[]): Unit[] {
  const inTest = (n: Node): boolean =>
    bodies.some((b) => n.startIndex >= b.startIndex && n.endIndex <= b.endIndex);
  const units: Unit[] = [];
  for (const f of collect(root, (n) => FUNCTIONS.includes(n.type))) {
    const name = JS.functionName(f);
    const body = f.childForFieldName('body');
    if (name && body && !inTest(f)) units.push({ name, body });
  }
  return units;
}

// a test-support module also holds factories and data: only what is named as a check is one
const CHECK_NAME = /^(?:check|assert|expect|verify|validate|ensure|should|must)/i;

/**
 * Modules of test support (`./helpers`, `../test/utils`, `test-utils`, a `./utils` next to the test):
 * what the tests call from them checks.
 */
const SUPPORT =
  /(?:^|[/:])(?:tests?|__tests__|testing|helpers?|test[-_]?utils?|support|fixtures?)(?:[/.:-]|$)|^\.\/utils?(?:\.\w+)?:/;

function checksIn(body: Node, helpers: ReadonlySet<string>, k: Constants): Found[] {
  const found = assertionsIn(body, k);
  return [...found, ...helperCalls(body, helpers, found, JS, args)];
}

/** The tests of a Jest, Vitest or node:test file (or the file itself, as one test, when it has none), and its helpers. */
export function jsTreeModel(root: Node): FileModelDetail {
  const k = fileConstants(root, JS);
  const entries = testsOf(root);
  const units = unitsOf(
    root,
    entries.map((e) => e.body),
  );
  const helperNames = checkingUnits(units, (b) => assertionsIn(b, k).length > 0, JS);
  const { definitions, imports } = definitionsAndImports(
    root,
    entries.map((e) => e.body),
    JS,
  );
  for (const [name, from] of Object.entries(imports))
    if (SUPPORT.test(from) && CHECK_NAME.test(name)) helperNames.add(name);
  const only = entries.some((e) => e.only);
  const tests: TestFact[] = entries.map((e) => {
    const found = checksIn(e.body, helperNames, k);
    const cases = jsCases(
      e.tables,
      e.body,
      found.map((f) => f.node),
      withLocals(k, e.body, JS),
      JS,
    );
    return {
      name: e.name,
      skipped: e.skipped || (only && !e.only),
      assertions: assertionFacts(found, e.body, JS, k),
      ...(cases ? { cases } : {}),
    };
  });
  if (entries.length === 0)
    tests.push({
      name: '(file)',
      skipped: false,
      assertions: assertionFacts(assertionsIn(root, k), root, JS, k),
    });
  const helpers: TestFact[] = units
    .filter((u) => helperNames.has(u.name))
    .map((u) => ({
      name: u.name,
      skipped: false,
      assertions: assertionFacts(checksIn(u.body, helperNames, k), u.body, JS, k),
    }));
  const mocks = jsMocks(root, JS);
  return {
    tests,
    ...(helpers.length ? { helpers } : {}),
    mocks,
    redefinitions: definitions.map((d) => d.text),
    definitions,
    imports,
  };
}
