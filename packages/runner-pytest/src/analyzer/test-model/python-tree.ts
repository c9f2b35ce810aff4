import { pythonForm } from './python-form.js';
import type { PlainNode as Node } from '@suture/core/analysis';
import {
  assertionFacts,
  checkingUnits,
  cleanText,
  collect,
  helperCalls,
  same,
  type Constants,
  type Dialect,
  type Found,
  type Unit,
} from '@suture/core/analysis';
import { definitionsOf, importsOf, pythonMocks } from './python-defs.js';
import { pythonBindings, pythonCases, pythonVariable } from './python-names.js';
import { boundOnce, fileConstants, foldComparison, NO_CONSTANTS, withLocals } from '@suture/core/analysis';
import type { FileModelDetail, TestFact } from '@suture/core/analysis';

const SWALLOWED = /\b(?:AssertionError|Exception|BaseException)\b/;
const STOP_CALL = /^(?:pytest\.(?:skip|xfail|exit)|self\.skipTest|sys\.exit|os\._exit|exit|quit|os\.abort)$/;
const STOP_RAISE = /^raise\s+(?:SystemExit|unittest\.SkipTest|pytest\.skip\.Exception|KeyboardInterrupt)\b/;
const ASSERT_CALL =
  /^(?:self\.)?assert\w*$|(?:^|\.)assert_\w*$|^(?:pytest\.)?(?:raises|warns|deprecated_call)$/;
const FAIL_CALL = /^(?:pytest\.fail|self\.fail|fail)$/;
const SKIP_MARK =
  /^@(?:pytest\.mark\.(?:skip|skipif|xfail)|unittest\.(?:skip\w*|expectedFailure)|(?:skip\w*|expectedFailure))\b/;
const SKIP_CALL = /^(?:pytest\.(?:skip|xfail|importorskip)|self\.skipTest)$/;

const fn = (call: Node): string => call.childForFieldName('function')?.text ?? '';
/** The exception types a `raises(...)` or `suppress(...)` call names: its positional arguments, not `match=`. */
const caught = (call: Node): string =>
  (call.childForFieldName('arguments')?.namedChildren ?? [])
    .filter((a) => a.type !== 'keyword_argument' && a.type !== 'string')
    .map((a) => a.text)
    .join(' ');

const LITERAL = new Set(['integer', 'float', 'true', 'false', 'none', 'string']);

/** A literal's value for a comparison: a number, or a string's source (quotes and prefix alike). */
const literalValue = (x: Node): number | string =>
  x.type === 'integer' || x.type === 'float' ? Number(x.text.replace(/_/g, '')) : x.text;

function truth(n: Node, k: Constants): boolean | undefined {
  switch (n.type) {
    case 'identifier': {
      // a module constant (`DEBUG = False`), read once: its own value names no constant
      const value = k.get(n.text);
      return value ? truth(value, NO_CONSTANTS) : undefined;
    }
    case 'true':
      return true;
    case 'false':
    case 'none':
      return false;
    case 'integer':
    case 'float':
      return Number(n.text.replace(/_/g, '')) !== 0;
    case 'string':
      return n.namedChildren.some((c) => c.type === 'interpolation')
        ? undefined
        : n.namedChildren.some((c) => c.type === 'string_content' && c.text.length > 0);
    case 'tuple':
    case 'list':
    case 'dictionary':
      return n.namedChildCount > 0;
    case 'parenthesized_expression':
      return n.namedChildren[0] ? truth(n.namedChildren[0], k) : undefined;
    case 'not_operator': {
      const v = truth(n.childForFieldName('argument')!, k);
      return v === undefined ? undefined : !v;
    }
    case 'boolean_operator': {
      const l = truth(n.childForFieldName('left')!, k);
      const r = truth(n.childForFieldName('right')!, k);
      if (n.children[1]?.type === 'or')
        return l === true || r === true ? true : l === false && r === false ? false : undefined;
      return l === false || r === false ? false : l === true && r === true ? true : undefined;
    }
    case 'comparison_operator': {
      const [x, y] = n.namedChildren;
      const op = n.children
        .filter((c) => !c.isNamed)
        .map((c) => c.type)
        .join(' ');
      if (n.namedChildCount !== 2 || !x || !y) return undefined;
      // a module constant compared with a literal folds like the literal
      const [a, b] = [x, y].map((v) => (v.type === 'identifier' ? (k.get(v.text) ?? v) : v)) as [Node, Node];
      if (a.text === b.text && (op === '==' || op === 'is' || op === '<=' || op === '>=')) return true;
      if (LITERAL.has(a.type) && LITERAL.has(b.type))
        return foldComparison(op, literalValue(a), literalValue(b));
      return undefined;
    }
    default:
      return undefined;
  }
}

const isStop = (s: Node, k: Constants): string | undefined => {
  if (['return_statement', 'break_statement', 'continue_statement'].includes(s.type)) return s.text;
  if (s.type === 'raise_statement' && STOP_RAISE.test(s.text)) return s.text;
  const call = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  if (call?.type === 'call' && STOP_CALL.test(fn(call))) return cleanText(call, PY);
  if (s.type === 'if_statement' && truth(s.childForFieldName('condition')!, k) === true) {
    const then = s.childForFieldName('consequence');
    const stop = then?.namedChildren.map((c) => isStop(c, k)).find(Boolean);
    if (stop) return `${cleanText(s.childForFieldName('condition')!, PY)}: ${stop}`;
  }
  return undefined;
};

/** The exception types a handler names, comments left out and aliases (`E = BaseException`) read through. */
function handled(h: Node, k: Constants): string {
  return h.namedChildren
    .filter((c) => c.type !== 'block' && !PY.comments.has(c.type))
    .map((c) => {
      const types = c.type === 'as_pattern' ? c.namedChildren[0]! : c;
      return collect(
        types,
        (x) => x.type === 'identifier' || x.type === 'attribute',
        (x) => x.type === 'attribute',
      )
        .map((x) => (x.type === 'identifier' ? (k.get(x.text)?.text ?? x.text) : x.text))
        .join(' ');
    })
    .join(' ');
}

function guard(parent: Node, child: Node, k: Constants): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  if (
    (parent.type === 'if_statement' || parent.type === 'elif_clause') &&
    child.id === field('consequence')?.id
  ) {
    if (truth(field('condition')!, k) === false)
      return `it sits in a branch that never runs (\`if ${cleanText(field('condition')!, PY)}:\`)`;
  }
  if (parent.type === 'else_clause' && parent.parent?.type === 'if_statement') {
    if (truth(parent.parent.childForFieldName('condition')!, k) === true)
      return 'it sits in an else branch that never runs';
  }
  if (
    parent.type === 'while_statement' &&
    child.id === field('body')?.id &&
    truth(field('condition')!, k) === false
  )
    return `it sits in a loop that never runs (\`while ${field('condition')!.text}:\`)`;
  if (parent.type === 'for_statement' && child.id === field('body')?.id) {
    const over = field('right')!;
    if (truth(over, k) === false || /^range\(\s*0?\s*\)$/.test(over.text))
      return `it sits in a loop that never runs (\`for ... in ${over.text}:\`)`;
  }
  if (parent.type === 'with_statement' && child.id === field('body')?.id) {
    for (const item of collect(parent.namedChildren[0]!, (n) => n.type === 'call'))
      if (/(?:^|\.)(?:raises|suppress|assertRaises)$/.test(fn(item)) && SWALLOWED.test(caught(item)))
        return `\`${cleanText(item, PY)}\` swallows its failure`;
  }
  if (parent.type === 'try_statement' && child.id === field('body')?.id) {
    for (const h of parent.namedChildren) {
      if (h.type === 'finally_clause' && collect(h, (n) => n.type === 'return_statement').length)
        return 'a `return` in its `finally:` discards its failure';
      if (h.type !== 'except_clause' && h.type !== 'except_group_clause') continue;
      const types = handled(h, k);
      const rethrows = collect(
        h,
        (n) =>
          n.type === 'raise_statement' ||
          n.type === 'assert_statement' ||
          (n.type === 'call' && FAIL_CALL.test(fn(n))),
      ).length;
      if ((types === '' || SWALLOWED.test(types)) && !rethrows)
        return `a try block swallows its failure (\`except${types ? ` ${types}` : ''}:\`)`;
    }
  }
  return undefined;
}

export const PY: Dialect = {
  comments: new Set(['comment']),
  blocks: new Set(['block', 'module']),
  functions: new Set(['function_definition', 'lambda']),
  names: new Set(['identifier']),
  opaque: new Set(['string_content', 'escape_sequence']),
  calls: new Set(['call']),
  stop: isStop,
  truth,
  guard,
  form: pythonForm,
  bindings: pythonBindings,
  isVariable: pythonVariable,
  discards: (use) => use.parent?.type === 'delete_statement',
  functionName: (f) =>
    f.type === 'function_definition'
      ? f.childForFieldName('name')?.text
      : f.parent?.type === 'assignment'
        ? f.parent.childForFieldName('left')?.text
        : undefined,
  callee: (call) => {
    const f = call.childForFieldName('function');
    return f?.type === 'attribute'
      ? f.childForFieldName('attribute')?.text
      : f?.type === 'identifier'
        ? f.text
        : undefined;
  },
};

/** An assertion: `assert`, unittest's and helpers' `assert*` calls, `pytest.raises` (as `with` or call), a failing branch. */
function assertionsIn(body: Node, k: Constants): Found[] {
  const found: Found[] = [];
  for (const n of collect(body, (x) =>
    ['assert_statement', 'call', 'with_statement', 'if_statement'].includes(x.type),
  )) {
    if (n.type === 'assert_statement') {
      const [test] = n.namedChildren;
      const sides = test?.type === 'comparison_operator' ? test.namedChildren : [];
      found.push({
        node: n,
        subjects: test ? [test] : [],
        constant: !!test && (truth(test, k) === true || (sides.length === 2 && same(sides[0], sides[1], PY))),
      });
    } else if (n.type === 'with_statement') {
      const calls = collect(n.namedChildren[0]!, (x) => x.type === 'call');
      if (
        calls.some((c) =>
          /(?:^|\.)(?:raises|warns|deprecated_call|assertRaises\w*|assertWarns\w*)$/.test(fn(c)),
        )
      )
        found.push({ node: n, wrapsFailure: calls.some((c) => SWALLOWED.test(caught(c))) });
    } else if (n.type === 'call') {
      if (n.parent?.parent?.type === 'with_clause' || n.parent?.type === 'with_clause') continue;
      if (!ASSERT_CALL.test(fn(n))) continue;
      const args =
        n.childForFieldName('arguments')?.namedChildren.filter((a) => a.type !== 'keyword_argument') ?? [];
      found.push({ node: n, subjects: args, constant: args.length === 2 && same(args[0], args[1], PY) });
    } else {
      // `if x != 5: raise AssertionError(...)`: the condition is what the test checks
      const then = n.childForFieldName('consequence');
      const fails = then?.namedChildren.some(
        (s) =>
          s.type === 'raise_statement' ||
          (s.type === 'expression_statement' &&
            s.namedChildren[0]?.type === 'call' &&
            FAIL_CALL.test(fn(s.namedChildren[0]))),
      );
      if (fails)
        found.push({
          node: n.childForFieldName('condition')!,
          subjects: [n.childForFieldName('condition')!],
        });
    }
  }
  return found;
}

const testName = (name: string): boolean => /^test/.test(name);

const SETUP = /^(?:setUp|setUpClass|setup_method|setup_class|setup|setup_module|setup_function|setUpModule)$/;
const STOP_SKIP = /^raise\s+(?:unittest\.SkipTest|pytest\.skip\.Exception|SkipTest)\b/;

/**
 * Does the scope (a module or a test class) skip every test it holds before one runs: a skip in
 * `setUp`, `setup_method` and kin, or in an autouse fixture?
 */
function setupSkips(scope: Node): boolean {
  return scope.namedChildren.some((s) => {
    const def = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
    if (def.type !== 'function_definition') return false;
    const autouse =
      s.type === 'decorated_definition' &&
      s.namedChildren.some((c) => c.type === 'decorator' && /fixture\b[^]*\bautouse\s*=\s*True/.test(c.text));
    if (!autouse && !SETUP.test(def.childForFieldName('name')?.text ?? '')) return false;
    return (
      collect(
        def.childForFieldName('body')!,
        (n) =>
          (n.type === 'call' && SKIP_CALL.test(fn(n))) ||
          (n.type === 'raise_statement' && STOP_SKIP.test(n.text)),
      ).length > 0
    );
  });
}

/** The file's functions and methods that are not tests: each is a helper when it checks something. */
function unitsOf(root: Node): Unit[] {
  const units: Unit[] = [];
  const visit = (scope: Node, owner: string[]): void => {
    for (const s of scope.namedChildren) {
      const def = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
      const name = def.childForFieldName('name')?.text ?? '';
      if (def.type === 'class_definition') visit(def.childForFieldName('body')!, [...owner, name]);
      else if (def.type === 'function_definition' && !testName(name))
        units.push({ name: [...owner, name].join('.'), body: def.childForFieldName('body')! });
    }
  };
  visit(root, []);
  return units;
}

// a test-support module also holds factories and data: only what is named as a check is one
const CHECK_NAME = /^(?:check|assert|expect|verify|validate|ensure|should|must)/i;

/** Names the tests call that come from a test-support module (`tests.helpers`, `conftest`): helpers too. */
const SUPPORT =
  /(?:^|[.:])(?:tests?|testing|conftest|helpers?|test_\w+|\w+_tests?|test_?utils?|support)(?:[.:]|$)/;

/** What a body checks: its assertions and its calls of helpers. */
function checksIn(body: Node, helpers: ReadonlySet<string>, k: Constants): Found[] {
  const found = assertionsIn(body, k);
  const args = (c: Node): Node[] => c.childForFieldName('arguments')?.namedChildren ?? [];
  return [...found, ...helperCalls(body, helpers, found, PY, args)];
}

/** The tests of a pytest or unittest file (and its helpers), read from its syntax tree. */
export function pythonTreeModel(root: Node): FileModelDetail {
  const k = fileConstants(root, PY);
  const units = unitsOf(root);
  const helperNames = checkingUnits(units, (b) => assertionsIn(b, k).length > 0, PY);
  const tests: TestFact[] = [];
  const bodies: Node[] = [];
  // a skip at the top level (a mark, `pytest.importorskip`, `pytest.skip(allow_module_level=True)`) skips them all
  const moduleSkip = root.namedChildren.some(
    (s) =>
      (/^pytestmark\s*=/.test(s.text) && /\b(?:skip|skipif|xfail)\b/.test(s.text)) ||
      (s.type === 'expression_statement' &&
        collect(s, (n) => n.type === 'call' && SKIP_CALL.test(fn(n))).length > 0),
  );
  const imports = importsOf(root);
  for (const [name, from] of Object.entries(imports))
    if (SUPPORT.test(from) && CHECK_NAME.test(name)) helperNames.add(name);
  const visit = (scope: Node, owner: string[], outer: boolean, inherited: Node[]): void => {
    const skipped = outer || setupSkips(scope);
    for (const s of scope.namedChildren) {
      const def = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
      const decorators =
        s.type === 'decorated_definition' ? s.namedChildren.filter((c) => c.type === 'decorator') : [];
      const marks = decorators.map((c) => cleanText(c, PY));
      const name = def.childForFieldName('name')?.text ?? '';
      const marked = skipped || marks.some((m) => SKIP_MARK.test(m));
      if (def.type === 'class_definition')
        visit(def.childForFieldName('body')!, [...owner, name], marked, [...inherited, ...decorators]);
      if (def.type !== 'function_definition' || !testName(name)) continue;
      const body = def.childForFieldName('body')!;
      bodies.push(body);
      const found = checksIn(body, helperNames, k);
      const cases = pythonCases(
        [...inherited, ...decorators],
        body,
        found.map((f) => f.node),
        withLocals(k, body, PY),
        PY,
      );
      tests.push({
        name: [...owner, name].join('.'),
        skipped:
          moduleSkip || marked || collect(body, (n) => n.type === 'call' && SKIP_CALL.test(fn(n))).length > 0,
        assertions: assertionFacts(found, body, PY, k),
        ...(cases ? { cases } : {}),
      });
    }
  };
  visit(root, [], false, []);
  const helpers: TestFact[] = units
    .filter((u) => helperNames.has(u.name.split('.').at(-1)!))
    .map((u) => ({
      name: u.name,
      skipped: false,
      assertions: assertionFacts(checksIn(u.body, helperNames, k), u.body, PY, k),
    }));
  const locals = definitionsOf(root, bodies, imports, PY);
  const aliases = new Map([...k, ...[...boundOnce(root, PY)].map(([n, b]) => [n, b.value!] as const)]);
  const mocks = pythonMocks(root, imports, aliases, PY);
  const called = new Set<string>();
  for (const body of bodies)
    for (const c of collect(body, (n) => n.type === 'call')) {
      const head = /^\w+/.exec(fn(c))?.[0];
      const name = PY.callee(c);
      if (head && name && head in imports) called.add(name);
    }
  return {
    tests,
    ...(helpers.length ? { helpers } : {}),
    mocks,
    redefinitions: locals.map((d) => d.text),
    definitions: locals,
    imports,
    called: [...called],
  };
}
