import {
  assertionFacts,
  checkingUnits,
  cleanText,
  collect,
  comparison,
  deadBranch,
  disarmedIn,
  fileConstants,
  foldComparison,
  FormBuilder,
  helperCalls,
  NO_CONSTANTS,
  same,
  sideOf,
  underConditions,
  type AssertionForm,
  type Constants,
  type Dialect,
  type FileModelDetail,
  type Found,
  type PlainNode as Node,
  type TestFact,
  type Unit,
} from '@suture/core/analysis';
import { goBindings, goVariable } from './go-names.js';

/** `t.Error`, `t.Fatalf`, `b.Fail`...: the calls of a `*testing.T` that fail the test. */
const FAILS = /^(?:Error|Errorf|Fatal|Fatalf|Fail|FailNow)$/;
const SKIPS = /^(?:Skip|Skipf|SkipNow)$/;
/** testify's packages (and `assert.New(t)` values bound to a name of the same kind). */
const TESTIFY = /^(?:assert|require|should|is|must)$/;
const COMPARES = /^(?:Equal|NotEqual|EqualValues|Exactly|Same|NotSame|ElementsMatch|JSONEq|YAMLEq)f?$/;
const BOOLEAN = /^(?:True|False)f?$/;
const WRAPS = /^(?:Panics|PanicsWithValue|PanicsWithError|NotPanics)f?$/;

const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];
const selector = (call: Node): { operand: string; field: string } | undefined => {
  const f = call.childForFieldName('function');
  if (f?.type !== 'selector_expression') return undefined;
  return { operand: f.childForFieldName('operand')!.text, field: f.childForFieldName('field')!.text };
};

function literalValue(x: Node): number | undefined {
  if (x.type !== 'int_literal' && x.type !== 'float_literal') return undefined;
  const v = Number(x.text.replace(/_/g, ''));
  return Number.isNaN(v) ? undefined : v;
}

function truth(n: Node, k: Constants): boolean | undefined {
  switch (n.type) {
    case 'true':
      return true;
    case 'false':
      return false;
    case 'identifier': {
      const value = k.get(n.text);
      return value ? truth(value, NO_CONSTANTS) : undefined;
    }
    case 'parenthesized_expression':
      return n.namedChildren[0] ? truth(n.namedChildren[0], k) : undefined;
    case 'unary_expression': {
      const v = truth(n.childForFieldName('operand')!, k);
      return n.childForFieldName('operator')?.text === '!' && v !== undefined ? !v : undefined;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text;
      const l = n.childForFieldName('left')!;
      const r = n.childForFieldName('right')!;
      if (op === '||')
        return truth(l, k) === true || truth(r, k) === true
          ? true
          : truth(l, k) === false && truth(r, k) === false
            ? false
            : undefined;
      if (op === '&&')
        return truth(l, k) === false || truth(r, k) === false
          ? false
          : truth(l, k) === true && truth(r, k) === true
            ? true
            : undefined;
      if ((op === '==' || op === '!=' || op === '<=' || op === '>=') && same(l, r, GO)) return op !== '!=';
      if ((op === '<' || op === '>') && same(l, r, GO)) return false;
      const [a, b] = [l, r].map((v) => literalValue(v.type === 'identifier' ? (k.get(v.text) ?? v) : v));
      return a !== undefined && b !== undefined ? foldComparison(op ?? '', a, b) : undefined;
    }
    default:
      return undefined;
  }
}

/** The call an expression statement is. */
const callOf = (s: Node): Node | undefined => {
  const e = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  return e?.type === 'call_expression' ? e : undefined;
};

function isStop(s: Node, k: Constants): string | undefined {
  if (['return_statement', 'break_statement', 'continue_statement', 'goto_statement'].includes(s.type))
    return cleanText(s, GO);
  const call = callOf(s);
  const sel = call ? selector(call) : undefined;
  if (
    call &&
    sel &&
    (SKIPS.test(sel.field) || /^(?:os\.Exit|runtime\.Goexit)$/.test(`${sel.operand}.${sel.field}`))
  )
    return cleanText(call, GO);
  if (s.type === 'if_statement') {
    // a branch that leaves the test without failing it, before an assertion, keeps the assertion
    // from running whenever its condition holds: constant or not, it is a way around the check
    const inner = statements(s.childForFieldName('consequence'));
    const stop = inner.map((c) => isStop(c, k)).find(Boolean);
    if (stop && !inner.some(failsTest))
      return `if ${cleanText(s.childForFieldName('condition')!, GO)} { ${stop} }`;
  }
  return undefined;
}

function guard(parent: Node, child: Node, k: Constants): string | undefined {
  const dead = deadBranch(parent, child, (n) => truth(n, k), GO);
  if (dead) return dead;
  if (
    parent.type === 'if_statement' &&
    child.id === parent.childForFieldName('alternative')?.id &&
    truth(parent.childForFieldName('condition')!, k) === true
  )
    return 'it sits in an else branch that never runs';
  if (parent.type === 'for_statement' && child.id === parent.childForFieldName('body')?.id) {
    const cond = parent.namedChildren.find(
      (c) =>
        c.field === undefined && c.type !== 'block' && c.type !== 'for_clause' && c.type !== 'range_clause',
    );
    if (cond && truth(cond, k) === false) return 'it sits in a loop that never runs';
  }
  return undefined;
}

/** The form of a condition that fails the test when it holds: `if got != want` checks `@ == $`. */
function expr(b: FormBuilder, n: Node, d: Dialect): string {
  if (n.type === 'parenthesized_expression' && n.namedChildren[0]) return expr(b, n.namedChildren[0], d);
  if (n.type === 'unary_expression' && n.childForFieldName('operator')?.text === '!')
    return b.not(() => expr(b, n.childForFieldName('operand')!, d));
  if (n.type === 'binary_expression') {
    const op = n.childForFieldName('operator')?.text ?? '';
    const [l, r] = [n.childForFieldName('left')!, n.childForFieldName('right')!];
    if (op === '&&' || op === '||')
      return `(${expr(b, l, d)}) ${op === '&&' ? 'and' : 'or'} (${expr(b, r, d)})`;
    if (/^(?:==|!=|<|<=|>|>=)$/.test(op)) return comparison(b, op, sideOf(l, d), sideOf(r, d));
  }
  return sideOf(n, d).subject ? '@' : b.value(cleanText(n, d));
}

function formOf(node: Node, d: Dialect): AssertionForm | undefined {
  const b = new FormBuilder();
  if (node.type !== 'call_expression') return b.done(b.not(() => expr(b, node, d)));
  const sel = selector(node);
  if (!sel) return undefined;
  const a = args(node).slice(TESTIFY.test(sel.operand) ? 1 : 0);
  const name = sel.field.replace(/f$/, '');
  if (/^(?:Equal|EqualValues|Exactly)$/.test(name) && a.length >= 2)
    return b.done(comparison(b, '==', sideOf(a[1]!, d), sideOf(a[0]!, d)));
  if (name === 'NotEqual' && a.length >= 2)
    return b.done(comparison(b, '!=', sideOf(a[1]!, d), sideOf(a[0]!, d)));
  if (name === 'True' && a[0]) return b.done(expr(b, a[0], d));
  if (name === 'False' && a[0]) return b.done(b.not(() => expr(b, a[0]!, d)));
  if (FAILS.test(sel.field)) return b.done('fail()');
  return b.done(
    `${sel.field}(${a.map((x) => (sideOf(x, d).subject ? '@' : b.value(cleanText(x, d)))).join(', ')})`,
  );
}

export const GO: Dialect = {
  comments: new Set(['comment']),
  blocks: new Set(['statement_list', 'source_file']),
  functions: new Set(['func_literal']),
  names: new Set(['identifier', 'field_identifier', 'package_identifier']),
  opaque: new Set(['interpreted_string_literal_content', 'raw_string_literal_content', 'escape_sequence']),
  calls: new Set(['call_expression']),
  stop: isStop,
  truth,
  guard,
  bindings: goBindings,
  isVariable: goVariable,
  discards: (use) =>
    use.parent?.type === 'assignment_statement' && use.parent.childForFieldName('left')?.text === '_',
  form: underConditions(formOf),
  functionName: (f) => {
    const holder = f.parent?.parent;
    if (holder?.type === 'short_var_declaration' || holder?.type === 'assignment_statement')
      return holder.childForFieldName('left')?.namedChildren[0]?.text;
    return undefined;
  },
  callee: (call) => {
    const f = call.childForFieldName('function');
    if (f?.type === 'selector_expression') return f.childForFieldName('field')?.text;
    return f?.type === 'identifier' ? f.text : undefined;
  },
};

/** Does this statement fail the test: `t.Errorf(...)`, `t.Fatal(...)`, `assert.Fail(...)`, `panic(...)`? */
function failsTest(s: Node): boolean {
  const call = callOf(s);
  if (!call) return false;
  const sel = selector(call);
  if (sel) return FAILS.test(sel.field) || (TESTIFY.test(sel.operand) && /^Fail(?:Now)?f?$/.test(sel.field));
  return call.childForFieldName('function')?.text === 'panic';
}

/** The statements of a block (its statement list's children). */
const statements = (block: Node | null): Node[] =>
  block?.namedChildren.find((c) => c.type === 'statement_list')?.namedChildren ?? [];

function assertionsIn(body: Node, k: Constants, testify: ReadonlySet<string>): Found[] {
  const found: Found[] = [];
  const counted = new Set<number>();
  for (const n of collect(body, (x) => x.type === 'call_expression' || x.type === 'if_statement')) {
    if (n.type === 'if_statement') {
      const then = n.childForFieldName('consequence');
      const failing = statements(then).filter(failsTest);
      if (failing.length === 0) continue;
      for (const s of failing) counted.add(callOf(s)!.id);
      const cond = n.childForFieldName('condition')!;
      found.push({ node: cond, subjects: [cond], constant: truth(cond, k) !== undefined });
      continue;
    }
    if (counted.has(n.id)) continue;
    const sel = selector(n);
    if (!sel) continue;
    if (testify.has(sel.operand) && sel.field !== 'New') {
      const a = args(n);
      const values = TESTIFY.test(sel.operand) ? a.slice(1) : a;
      found.push({
        node: n,
        subjects: values,
        constant:
          (COMPARES.test(sel.field) && values.length >= 2 && same(values[0], values[1], GO)) ||
          (BOOLEAN.test(sel.field) && !!values[0] && truth(values[0], k) === sel.field.startsWith('True')),
        wrapsFailure: WRAPS.test(sel.field),
      });
    } else if (FAILS.test(sel.field) && n.parent?.type === 'expression_statement')
      found.push({ node: n, subjects: [n] });
  }
  return found;
}

/** Names that hold testify's checks: its packages, and values made by `assert.New(t)`. */
function testifyNames(root: Node, imports: Record<string, string>): Set<string> {
  const out = new Set<string>();
  for (const [alias, path] of Object.entries(imports))
    if (/stretchr\/testify\/(?:assert|require)$/.test(path)) out.add(alias);
  for (const d of collect(root, (n) => n.type === 'short_var_declaration')) {
    const right = d.childForFieldName('right')?.namedChildren[0];
    const sel = right?.type === 'call_expression' ? selector(right) : undefined;
    if (sel && out.has(sel.operand) && sel.field === 'New')
      out.add(d.childForFieldName('left')!.namedChildren[0]!.text);
  }
  return out;
}

function importsOf(root: Node): Record<string, string> {
  const out: Record<string, string> = {};
  for (const spec of collect(root, (n) => n.type === 'import_spec')) {
    const path = spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '') ?? '';
    out[spec.childForFieldName('name')?.text ?? path.split('/').at(-1)!] = path;
  }
  return out;
}

/** The tests of a Go test file (`func TestX(t *testing.T)`), read from its syntax tree. */
export function goTreeModel(root: Node): FileModelDetail {
  const k = fileConstants(root, GO);
  const imports = importsOf(root);
  const testify = testifyNames(root, imports);
  const funcs = collect(
    root,
    (n) => n.type === 'function_declaration' || n.type === 'method_declaration',
  ).filter((f) => f.childForFieldName('body'));
  const nameOf = (f: Node): string => f.childForFieldName('name')!.text;
  const isTest = (f: Node): boolean =>
    f.type === 'function_declaration' &&
    /^(?:Test|Fuzz)(?:[A-Z_\d]|$)/.test(nameOf(f)) &&
    nameOf(f) !== 'TestMain';
  const units: Unit[] = funcs
    .filter((f) => !isTest(f))
    .map((f) => ({ name: nameOf(f), body: f.childForFieldName('body')! }));
  const helperNames = checkingUnits(units, (b) => assertionsIn(b, k, testify).length > 0, GO);
  const checksIn = (body: Node): Found[] => {
    const found = assertionsIn(body, k, testify);
    return [...found, ...helperCalls(body, helperNames, found, GO, args)];
  };
  const skipsIn = (body: Node): boolean =>
    collect(body, (n) => n.type === 'call_expression' && SKIPS.test(selector(n)?.field ?? '')).some(
      (c) => !disarmedIn(c, body, GO, k),
    );
  const tests: TestFact[] = funcs.filter(isTest).map((f) => {
    const body = f.childForFieldName('body')!;
    return {
      name: nameOf(f),
      skipped: skipsIn(body),
      assertions: assertionFacts(checksIn(body), body, GO, k),
    };
  });
  const helpers: TestFact[] = units
    .filter((u) => helperNames.has(u.name))
    .map((u) => ({
      name: u.name,
      skipped: false,
      assertions: assertionFacts(checksIn(u.body), u.body, GO, k),
    }));
  // a test file that defines its own `assert` or `require` shadows testify's checks
  const definitions = units
    .filter((u) => !helperNames.has(u.name))
    .map((u) => ({ name: u.name, text: `func ${u.name}` }));
  const shadows = collect(root, (n) => n.type === 'function_declaration' && TESTIFY.test(nameOf(n))).map(
    (n) => cleanText(n.childForFieldName('name')!, GO),
  );
  const defined = new Set(funcs.map(nameOf));
  const called = new Set<string>();
  for (const c of collect(root, (n) => n.type === 'call_expression')) {
    const f = c.childForFieldName('function');
    if (
      f?.type === 'identifier' &&
      !defined.has(f.text) &&
      !/^(?:panic|len|cap|append|make|new|copy|delete|print|println|recover|min|max|clear|close|complex|real|imag)$/.test(
        f.text,
      )
    )
      called.add(f.text);
  }
  return {
    tests,
    ...(helpers.length ? { helpers } : {}),
    mocks: [],
    redefinitions: shadows,
    definitions,
    imports,
    called: [...called],
  };
}
