import { pythonForm } from './form-python.js';
import type { Node } from './model-grammar.js';
import { assertionFacts, cleanText, collect, same, type Dialect, type Found } from './model-tree.js';
import type { Definition, FileModelDetail, TestFact } from './test-model.js';

const SWALLOWED = /\b(?:AssertionError|Exception|BaseException)\b/;
const STOP_CALL = /^(?:pytest\.(?:skip|xfail|exit)|self\.skipTest|sys\.exit|os\._exit|exit|quit|os\.abort)$/;
const STOP_RAISE = /^raise\s+(?:SystemExit|unittest\.SkipTest|pytest\.skip\.Exception|KeyboardInterrupt)\b/;
const ASSERT_CALL =
  /^(?:self\.)?assert\w*$|(?:^|\.)assert_\w*$|^(?:pytest\.)?(?:raises|warns|deprecated_call)$/;
const FAIL_CALL = /^(?:pytest\.fail|self\.fail|fail)$/;
const SKIP_MARK =
  /^@(?:pytest\.mark\.(?:skip|skipif|xfail)|unittest\.(?:skip\w*|expectedFailure)|(?:skip\w*|expectedFailure))\b/;
const SKIP_CALL = /^(?:pytest\.(?:skip|xfail)|self\.skipTest)$/;
const MOCK_CALL =
  /^(?:(?:\w+\.)*(?:mock\.)?patch(?:\.object|\.dict|\.multiple)?|monkeypatch\.(?:setattr|setitem|delattr|delitem|syspath_prepend)|mocker\.(?:patch(?:\.object|\.dict|\.multiple)?|spy))$/;
const ASSERTION_LIKE = /^(?:assert\w*|AssertionError|raises|pytest|unittest|approx|fail)$/;

const fn = (call: Node): string => call.childForFieldName('function')?.text ?? '';
/** The exception types a `raises(...)` or `suppress(...)` call names: its positional arguments, not `match=`. */
const caught = (call: Node): string =>
  (call.childForFieldName('arguments')?.namedChildren ?? [])
    .filter((a) => a.type !== 'keyword_argument' && a.type !== 'string')
    .map((a) => a.text)
    .join(' ');

function truth(n: Node): boolean | undefined {
  switch (n.type) {
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
      return n.namedChildren[0] ? truth(n.namedChildren[0]) : undefined;
    case 'not_operator': {
      const v = truth(n.childForFieldName('argument')!);
      return v === undefined ? undefined : !v;
    }
    case 'boolean_operator': {
      const l = truth(n.childForFieldName('left')!);
      const r = truth(n.childForFieldName('right')!);
      if (n.children[1]?.type === 'or')
        return l === true || r === true ? true : l === false && r === false ? false : undefined;
      return l === false || r === false ? false : l === true && r === true ? true : undefined;
    }
    case 'comparison_operator': {
      const [a, b] = n.namedChildren;
      const op = n.children[1]?.type;
      if (n.namedChildCount !== 2 || !a || !b) return undefined;
      const literal = (x: Node): boolean =>
        ['integer', 'float', 'true', 'false', 'none', 'string'].includes(x.type);
      if (a.text === b.text && (op === '==' || op === 'is' || op === '<=' || op === '>=')) return true;
      if (literal(a) && literal(b) && (op === '==' || op === 'is')) return a.text === b.text;
      return undefined;
    }
    default:
      return undefined;
  }
}

const isStop = (s: Node): string | undefined => {
  if (['return_statement', 'break_statement', 'continue_statement'].includes(s.type)) return s.text;
  if (s.type === 'raise_statement' && STOP_RAISE.test(s.text)) return s.text;
  const call = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
  if (call?.type === 'call' && STOP_CALL.test(fn(call))) return cleanText(call, PY);
  if (s.type === 'if_statement' && truth(s.childForFieldName('condition')!) === true) {
    const then = s.childForFieldName('consequence');
    const stop = then?.namedChildren.map(isStop).find(Boolean);
    if (stop) return `${cleanText(s.childForFieldName('condition')!, PY)}: ${stop}`;
  }
  return undefined;
};

function guard(parent: Node, child: Node): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  if (
    (parent.type === 'if_statement' || parent.type === 'elif_clause') &&
    child.id === field('consequence')?.id
  ) {
    if (truth(field('condition')!) === false)
      return `it sits in a branch that never runs (\`if ${cleanText(field('condition')!, PY)}:\`)`;
  }
  if (parent.type === 'else_clause' && parent.parent?.type === 'if_statement') {
    if (truth(parent.parent.childForFieldName('condition')!) === true)
      return 'it sits in an else branch that never runs';
  }
  if (
    parent.type === 'while_statement' &&
    child.id === field('body')?.id &&
    truth(field('condition')!) === false
  )
    return `it sits in a loop that never runs (\`while ${field('condition')!.text}:\`)`;
  if (parent.type === 'for_statement' && child.id === field('body')?.id) {
    const over = field('right')!;
    if (truth(over) === false || /^range\(\s*0?\s*\)$/.test(over.text))
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
      const types = h.namedChildren
        .filter((c) => c.type !== 'block')
        .map((c) => c.text)
        .join(' ');
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
function assertionsIn(body: Node): Found[] {
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
        constant: !!test && (truth(test) === true || (sides.length === 2 && same(sides[0], sides[1], PY))),
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

function definitionsAndImports(
  root: Node,
  tests: readonly Node[],
): { definitions: Definition[]; imports: Record<string, string> } {
  const imports: Record<string, string> = {};
  for (const s of collect(root, (n) => n.type === 'import_from_statement' || n.type === 'import_statement')) {
    const from = s.type === 'import_from_statement' ? (s.childForFieldName('module_name')?.text ?? '') : '';
    for (const n of s.childrenForFieldName('name')) {
      const alias = n.type === 'aliased_import' ? n.childForFieldName('alias')!.text : n.text.split('.')[0]!;
      const what = n.type === 'aliased_import' ? n.childForFieldName('name')!.text : n.text;
      imports[alias] = from ? `${from}:${what}` : what;
    }
  }
  const definitions: Definition[] = [];
  const bind = (name: string | undefined, node: Node, local: boolean): void => {
    if (!name || (local && !(name in imports) && !ASSERTION_LIKE.test(name))) return;
    definitions.push({
      name,
      text: cleanText(node, PY)
        .split(/:\s|\n/)[0]!
        .slice(0, 80),
    });
  };
  const scan = (scope: Node, local: boolean): void => {
    for (const s of scope.namedChildren) {
      const d = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
      if (d.type === 'function_definition' || d.type === 'class_definition')
        bind(
          d.childForFieldName('name')?.text,
          d,
          local || /^test/.test(d.childForFieldName('name')?.text ?? ''),
        );
      const a = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
      if (a?.type === 'assignment') {
        const left = a.childForFieldName('left')!;
        const name =
          left.type === 'attribute'
            ? left.childForFieldName('attribute')?.text
            : left.type === 'identifier'
              ? left.text
              : undefined;
        if (left.type === 'identifier' || (name && ASSERTION_LIKE.test(name)))
          bind(name, a, local || left.type !== 'identifier');
      }
      for (const i of s.type === 'import_statement' || s.type === 'import_from_statement'
        ? s.childrenForFieldName('name')
        : [])
        if (i.type === 'aliased_import' && ASSERTION_LIKE.test(i.childForFieldName('alias')!.text))
          bind(i.childForFieldName('alias')!.text, s, false);
    }
  };
  scan(root, false);
  for (const t of tests) scan(t, true);
  return { definitions, imports };
}

/** The tests of a pytest or unittest file, read from its syntax tree. */
export function pythonTreeModel(root: Node): FileModelDetail {
  const tests: TestFact[] = [];
  const bodies: Node[] = [];
  const moduleSkip = root.namedChildren.some(
    (s) => /^pytestmark\s*=/.test(s.text) && /\b(?:skip|skipif|xfail)\b/.test(s.text),
  );
  const visit = (scope: Node, owner: string[], skipped: boolean): void => {
    for (const s of scope.namedChildren) {
      const def = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
      const marks =
        s.type === 'decorated_definition'
          ? s.namedChildren.filter((c) => c.type === 'decorator').map((c) => cleanText(c, PY))
          : [];
      const name = def.childForFieldName('name')?.text ?? '';
      const marked = skipped || marks.some((m) => SKIP_MARK.test(m));
      if (def.type === 'class_definition') visit(def.childForFieldName('body')!, [...owner, name], marked);
      if (def.type !== 'function_definition' || !/^test/.test(name)) continue;
      const body = def.childForFieldName('body')!;
      bodies.push(body);
      tests.push({
        name: [...owner, name].join('.'),
        skipped:
          moduleSkip || marked || collect(body, (n) => n.type === 'call' && SKIP_CALL.test(fn(n))).length > 0,
        assertions: assertionFacts(assertionsIn(body), body, PY),
      });
    }
  };
  visit(root, [], false);
  const mocks = [
    ...collect(root, (n) => n.type === 'call' && MOCK_CALL.test(fn(n))).map((c) => cleanText(c, PY)),
    // `calc.add = lambda a, b: 5` and `sys.modules["calc"] = fake`: replacing the code by assignment
    ...collect(root, (n) => n.type === 'assignment')
      .filter((a) => {
        const left = a.childForFieldName('left')!;
        return (
          (left.type === 'attribute' && !/^(?:self|cls)\./.test(left.text)) ||
          /^sys\.modules\[/.test(left.text)
        );
      })
      .map((a) => cleanText(a, PY)),
  ];
  const { definitions, imports } = definitionsAndImports(root, bodies);
  const called = new Set<string>();
  for (const body of bodies)
    for (const c of collect(body, (n) => n.type === 'call')) {
      const head = /^\w+/.exec(fn(c))?.[0];
      const name = PY.callee(c);
      if (head && name && head in imports) called.add(name);
    }
  return {
    tests,
    mocks,
    redefinitions: definitions.map((d) => d.text),
    definitions,
    imports,
    called: [...called],
  };
}
