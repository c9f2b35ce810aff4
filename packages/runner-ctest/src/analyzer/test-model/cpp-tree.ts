import { cppForm } from './cpp-form.js';
import type { PlainNode as Node } from '@suture/core/analysis';
import {
  assertionFacts,
  checkingUnits,
  cleanText,
  helperCalls,
  type Unit,
  collect,
  deadBranch,
  disarmedIn,
  same,
  type Dialect,
  type Found,
  type Constants,
} from '@suture/core/analysis';
import { cppBindings, cppCases, cppInstantiations, cppVariable, skippingFixtures } from './cpp-names.js';
import { fileConstants, foldComparison, NO_CONSTANTS } from '@suture/core/analysis';
import type { Definition, FileModelDetail, TestFact } from '@suture/core/analysis';

const GTEST = /^(?:TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P|GTEST_TEST)$/;
const CATCH = /^(?:TEST_CASE|SCENARIO|TEST_CASE_METHOD)$/;
const ASSERTION =
  /^(?:(?:EXPECT|ASSERT)_\w+|TEST_ASSERT\w*|CHECK\w*|REQUIRE\w*|assert|CU_ASSERT\w*|ck_assert\w*)$/;
const COMPARES =
  /_(?:EQ|NE|LT|LE|GT|GE|STREQ|STRNE|STRCASEEQ|FLOAT_EQ|DOUBLE_EQ|NEAR)$|^TEST_ASSERT_EQUAL\w*$|^CHECK_EQUAL$/;
const BOOLEAN =
  /^(?:EXPECT_TRUE|ASSERT_TRUE|TEST_ASSERT|TEST_ASSERT_TRUE|assert|CHECK|REQUIRE|CU_ASSERT|ck_assert)$/;
const WRAPS =
  /^(?:EXPECT_NONFATAL_FAILURE|EXPECT_FATAL_FAILURE|EXPECT_NONFATAL_FAILURE_ON_ALL_THREADS|EXPECT_FATAL_FAILURE_ON_ALL_THREADS|(?:EXPECT|ASSERT)_(?:ANY_THROW|THROW|DEATH|EXIT|DEBUG_DEATH)|REQUIRE_THROWS\w*|CHECK_THROWS\w*)$/;
const STOP_CALL =
  /^(?:GTEST_SKIP|TEST_IGNORE\w*|TEST_PASS\w*|SKIP|(?:std::)?(?:exit|_Exit|quick_exit|abort|terminate)|_exit|longjmp)$/;
const FAIL_CALL = /^(?:FAIL|ADD_FAILURE|GTEST_FAIL|TEST_FAIL\w*|(?:std::)?(?:exit|_Exit|abort)|_exit)$/;

const fnText = (call: Node): string => call.childForFieldName('function')?.text ?? '';
const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];
/** The call a statement starts with: `GTEST_SKIP() << "why";` is GTEST_SKIP's. */
function leadingCall(s: Node): Node | undefined {
  let e = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  while (e?.type === 'binary_expression') e = e.childForFieldName('left') ?? undefined;
  return e?.type === 'call_expression' ? e : undefined;
}
const inner = (n: Node): Node =>
  n.type === 'condition_clause' ? (n.childForFieldName('value') ?? n.namedChildren.at(-1)!) : n;

const literalValue = (x: Node): number | undefined => {
  if (x.type !== 'number_literal') return undefined;
  const v = Number(x.text.replace(/[uUlLfF']+$/g, '').replace(/'/g, ''));
  return Number.isNaN(v) ? undefined : v;
};

function truth(raw: Node, k: Constants): boolean | undefined {
  const n = inner(raw);
  switch (n.type) {
    case 'true':
      return true;
    case 'false':
    case 'null':
    case 'nullptr':
      return false;
    case 'identifier': {
      // a `constexpr bool kDebug = false;` of the file, read once: its own value names no constant
      const value = k.get(n.text);
      return n.text === 'NULL' ? false : value ? truth(value, NO_CONSTANTS) : undefined;
    }
    case 'number_literal': {
      const v = Number(n.text.replace(/[uUlLfF']+$/g, '').replace(/'/g, ''));
      return Number.isNaN(v) ? undefined : v !== 0;
    }
    case 'string_literal':
      return true;
    case 'parenthesized_expression':
      return n.namedChildren[0] ? truth(n.namedChildren[0], k) : undefined;
    case 'unary_expression': {
      const v = truth(n.childForFieldName('argument')!, k);
      return n.childForFieldName('operator')?.text === '!' && v !== undefined ? !v : undefined;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text;
      const l = n.childForFieldName('left')!;
      const r = n.childForFieldName('right')!;
      if (op === '||') return truth(l, k) === true || truth(r, k) === true ? true : undefined;
      if (op === '&&') return truth(l, k) === false || truth(r, k) === false ? false : undefined;
      if ((op === '==' || op === '!=') && same(l, r, CPP)) return op === '==';
      const [a, b] = [l, r].map((v) => literalValue(v.type === 'identifier' ? (k.get(v.text) ?? v) : v));
      return a !== undefined && b !== undefined ? foldComparison(op ?? '', a, b) : undefined;
    }
    default:
      return undefined;
  }
}

function isStop(s: Node, k: Constants): string | undefined {
  if (['return_statement', 'break_statement', 'continue_statement', 'goto_statement'].includes(s.type))
    return cleanText(s, CPP);
  const call = leadingCall(s);
  if (call && STOP_CALL.test(fnText(call))) return cleanText(call, CPP);
  if (s.type === 'if_statement' && truth(s.childForFieldName('condition')!, k) === true) {
    const then = s.childForFieldName('consequence')!;
    const stop =
      then.type === 'compound_statement'
        ? then.namedChildren.map((c) => isStop(c, k)).find(Boolean)
        : isStop(then, k);
    if (stop) return `if ${cleanText(s.childForFieldName('condition')!, CPP)} ${stop}`;
  }
  return undefined;
}

function guard(parent: Node, child: Node, k: Constants): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  const dead = deadBranch(parent, child, (n) => truth(n, k), CPP);
  if (dead) return dead;
  if (parent.type === 'preproc_if' || parent.type === 'preproc_elif') {
    const v = truth(field('condition')!, k);
    if (v === false && child.id !== field('alternative')?.id) return 'it sits in an #if 0 block';
    if (v === true && child.id === field('alternative')?.id) return 'it sits in the #else of an #if 1 block';
  }
  if (parent.type === 'try_statement' && child.id === field('body')?.id) {
    for (const h of parent.namedChildren.filter((c) => c.type === 'catch_clause')) {
      const checks = collect(
        h,
        (n) =>
          n.type === 'throw_statement' ||
          n.type === 'throw_expression' ||
          (n.type === 'call_expression' && (ASSERTION.test(fnText(n)) || FAIL_CALL.test(fnText(n)))),
      );
      if (checks.length === 0) return 'a try block swallows its failure';
    }
  }
  return undefined;
}

export const CPP: Dialect = {
  comments: new Set(['comment']),
  blocks: new Set([
    'compound_statement',
    'translation_unit',
    'preproc_if',
    'preproc_else',
    'preproc_elif',
    'preproc_ifdef',
  ]),
  functions: new Set(['lambda_expression']),
  names: new Set(['identifier', 'field_identifier', 'namespace_identifier']),
  opaque: new Set(['string_content', 'escape_sequence', 'raw_string_content', 'system_lib_string']),
  calls: new Set(['call_expression']),
  stop: isStop,
  truth,
  guard,
  bindings: cppBindings,
  isVariable: cppVariable,
  discards: (use) =>
    use.parent?.type === 'cast_expression' && use.parent.childForFieldName('type')?.text === 'void',
  form: cppForm,
  functionName: (f) => {
    const holder = f.parent;
    if (holder?.type === 'init_declarator') return holder.childForFieldName('declarator')?.text;
    if (holder?.type === 'assignment_expression') return holder.childForFieldName('left')?.text;
    return undefined;
  },
  callee: (call) => {
    let f = call.childForFieldName('function');
    if (f?.type === 'template_function') f = f.childForFieldName('name');
    if (f?.type === 'field_expression') return f.childForFieldName('field')?.text;
    if (f?.type === 'qualified_identifier') return f.text.split('::').at(-1);
    return f?.type === 'identifier' ? f.text : undefined;
  },
};

function assertionsIn(body: Node, k: Constants): Found[] {
  const found: Found[] = [];
  for (const n of collect(body, (x) => x.type === 'call_expression' || x.type === 'if_statement')) {
    if (n.type === 'if_statement') {
      // `if (sum(2, 2) != 4) { printf(...); return 1; }`: a plain test program's check
      const then = n.childForFieldName('consequence')!;
      const fails = [then, ...then.namedChildren].some((s) => {
        if (s.type === 'return_statement') return !/^return\s*(?:0|EXIT_SUCCESS)?\s*;$/.test(s.text);
        const call = leadingCall(s);
        return (
          !!call &&
          FAIL_CALL.test(fnText(call)) &&
          !/^\w*exit\s*\(\s*(?:0|EXIT_SUCCESS)\s*\)$/.test(call.text)
        );
      });
      const cond = inner(n.childForFieldName('condition')!);
      if (fails) found.push({ node: cond, subjects: [cond] });
      continue;
    }
    const name = fnText(n);
    if (!ASSERTION.test(name)) continue;
    const a = args(n);
    found.push({
      node: n,
      subjects: a,
      constant:
        (COMPARES.test(name) && a.length >= 2 && same(a[0], a[1], CPP)) ||
        (BOOLEAN.test(name) && !!a[0] && truth(a[0], k) === true),
      wrapsFailure: WRAPS.test(name),
    });
  }
  return found;
}

/** Definitions by their own name: a function's (not `calc::`), a macro's. */
function defined(fn: Node): string | undefined {
  let d = fn.childForFieldName('declarator');
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const id = d?.childForFieldName('declarator');
  return id?.text.split('::').at(-1);
}

/** Functions main reaches: called (or passed, as RUN_TEST passes a test) from a statement that runs. */
function reachedFromMain(
  main: Node | undefined,
  functions: Map<string, Node>,
  k: Constants,
): Set<string> | undefined {
  if (!main) return undefined;
  const seen = new Set<string>(['main']);
  const queue = [main];
  while (queue.length) {
    const fn = queue.pop()!;
    const body = fn.childForFieldName('body')!;
    for (const call of collect(body, (x) => x.type === 'call_expression')) {
      if (disarmedIn(call, body, CPP, k)) continue;
      for (const id of [
        CPP.callee(call),
        ...args(call)
          .filter((a) => a.type === 'identifier')
          .map((a) => a.text),
      ]) {
        if (!id || seen.has(id)) continue;
        seen.add(id);
        const next = functions.get(id);
        if (next) queue.push(next);
      }
    }
  }
  return seen;
}

/** What the file defines (macros, `#undef`s, functions that are not tests) and the functions it calls without defining. */
function definitionsAndCalls(
  root: Node,
  functions: ReadonlyMap<string, Node>,
  testFunctions: ReadonlySet<string>,
): { definitions: Definition[]; called: Set<string> } {
  const definitions: Definition[] = [];
  for (const d of collect(root, (n) => n.type === 'preproc_def' || n.type === 'preproc_function_def'))
    definitions.push({ name: d.childForFieldName('name')!.text, text: cleanText(d, CPP).slice(0, 80) });
  for (const d of collect(
    root,
    (n) => n.type === 'preproc_call' && /^#\s*undef$/.test(n.childForFieldName('directive')?.text ?? ''),
  ))
    definitions.push({ name: d.childForFieldName('argument')?.text.trim() ?? '', text: cleanText(d, CPP) });
  for (const [name, f] of functions)
    if (!GTEST.test(name) && !testFunctions.has(name) && name !== 'main')
      definitions.push({ name, text: cleanText(f.childForFieldName('declarator')!, CPP).slice(0, 80) });
  const called = new Set<string>();
  for (const c of collect(root, (n) => n.type === 'call_expression')) {
    const name = CPP.callee(c);
    if (name && !functions.has(name) && !ASSERTION.test(name) && !/^[A-Z_]+$/.test(name)) called.add(name);
  }
  return { definitions, called };
}

/** The tests of a GoogleTest, Unity, Catch2 or plain test program file, read from its syntax tree. */
export function cppTreeModel(root: Node): FileModelDetail {
  const functions = new Map<string, Node>();
  for (const f of collect(root, (n) => n.type === 'function_definition')) {
    const name = defined(f);
    if (name) functions.set(name, f);
  }
  const k = fileConstants(root, CPP);
  const reached = reachedFromMain(functions.get('main'), functions, k);
  const units: Unit[] = [...functions]
    .filter(([name]) => !GTEST.test(name) && !/^(?:test|main$)/.test(name))
    .map(([name, f]) => ({ name, body: f.childForFieldName('body')! }));
  const helperNames = checkingUnits(units, (b) => assertionsIn(b, k).length > 0, CPP);
  // a macro that expands to assertions (`#define CHECK_SUM(f) EXPECT_EQ(f(2, 3), 5)`) is a helper
  // too: its uses are checks, and a new definition of it redefines what they check
  for (const m of collect(root, (n) => n.type === 'preproc_function_def'))
    if (
      /\b(?:(?:EXPECT|ASSERT)_\w+|CHECK\w*|REQUIRE\w*|TEST_ASSERT\w*)\s*\(/.test(
        m.childForFieldName('value')?.text ?? '',
      )
    )
      helperNames.add(m.childForFieldName('name')!.text);
  const checksIn = (body: Node): Found[] => {
    const found = assertionsIn(body, k);
    return [...found, ...helperCalls(body, helperNames, found, CPP, args)];
  };
  const tests: TestFact[] = [];
  const instantiated = cppInstantiations(root, k, CPP);
  const skipping = skippingFixtures(root);
  const add = (name: string, body: Node, registered: boolean, why: string, rows?: string[]): void => {
    const found = checksIn(body);
    const facts = assertionFacts(found, body, CPP, k);
    const looped = cppCases(
      body,
      found.map((f) => f.node),
      k,
      CPP,
    );
    const cases = rows || looped ? [...(rows ?? []), ...(looped ?? [])] : undefined;
    tests.push({
      name,
      skipped:
        /\bDISABLED_/.test(name) ||
        collect(
          body,
          (n) => n.type === 'call_expression' && /^(?:GTEST_SKIP|TEST_IGNORE\w*)$/.test(fnText(n)),
        ).length > 0 ||
        !!disarmedIn(body, root, CPP, k)?.includes('#if'),
      assertions: registered ? facts : facts.map((f) => ({ ...f, disarmed: f.disarmed ?? why })),
      ...(cases ? { cases } : {}),
    });
  };
  const testFunctions = new Set<string>();
  for (const f of collect(root, (n) => n.type === 'function_definition')) {
    const name = defined(f) ?? '';
    const body = f.childForFieldName('body');
    if (!body) continue;
    if (GTEST.test(name)) {
      const params = f.childForFieldName('declarator')!.childForFieldName('parameters')!.namedChildren;
      const registered = !reached || reached.has('RUN_ALL_TESTS');
      // a value-parameterized test runs the rows its suite is instantiated with
      const rows = /_P$/.test(name) ? instantiated.get(params[0]?.text ?? '') : undefined;
      add(params.map((p) => p.text).join('.'), body, registered, 'main never reaches RUN_ALL_TESTS()', rows);
      // a fixture whose SetUp skips skips every test of it
      if ((name !== 'TEST' && skipping.has(params[0]?.text ?? '')) || skipping.has('*'))
        tests.at(-1)!.skipped = true;
    } else if (/^test/.test(name)) {
      testFunctions.add(name);
      add(name, body, !reached || reached.has(name), `main never runs ${name}`);
    }
  }
  for (const s of collect(
    root,
    (n) => n.type === 'expression_statement' && CATCH.test(fnText(leadingCall(n) ?? n)),
  )) {
    const body = s.nextNamedSibling;
    const title = args(leadingCall(s)!)[0]?.text ?? '';
    if (body?.type === 'compound_statement') add(title.replace(/^"|"$/g, ''), body, true, '');
  }
  if (tests.length === 0) {
    const main = functions.get('main');
    add(main ? 'main' : '(file)', main?.childForFieldName('body') ?? root, true, '');
  }
  const { definitions, called } = definitionsAndCalls(root, functions, testFunctions);
  const helpers: TestFact[] = units
    .filter((u) => helperNames.has(u.name))
    .map((u) => ({
      name: u.name,
      skipped: false,
      assertions: assertionFacts(checksIn(u.body), u.body, CPP, k),
    }));
  return {
    tests,
    ...(helpers.length ? { helpers } : {}),
    mocks: [],
    redefinitions: definitions.map((d) => d.text),
    definitions,
    called: [...called],
  };
}
