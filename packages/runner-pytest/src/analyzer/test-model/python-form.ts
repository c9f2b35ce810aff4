import {
  approximately,
  comparison,
  FormBuilder,
  PYTEST_APPROX,
  type AssertionForm,
} from '@suture/core/analysis';
import { sideOf, underConditions } from '@suture/core/analysis';
import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, type Dialect } from '@suture/core/analysis';

const fn = (call: Node): string => call.childForFieldName('function')?.text ?? '';
const positional = (call: Node): Node[] =>
  (call.childForFieldName('arguments')?.namedChildren ?? []).filter((a) => a.type !== 'keyword_argument');
function keyword(call: Node, name: string): Node | undefined {
  for (const a of call.childForFieldName('arguments')?.namedChildren ?? [])
    if (a.type === 'keyword_argument' && a.childForFieldName('name')?.text === name)
      return a.childForFieldName('value') ?? undefined;
  return undefined;
}

/** `pytest.approx(5, abs=1e-3)` as an expected value: `$` at the default tolerance, else with its bounds. */
function approx(call: Node, d: Dialect): ((b: FormBuilder) => string) | undefined {
  if (call.type !== 'call' || !/(?:^|\.)approx$/.test(fn(call))) return undefined;
  const [value, rel, abs] = [positional(call)[0], keyword(call, 'rel'), keyword(call, 'abs')];
  if (!value) return undefined;
  const v = cleanText(value, d);
  if (!rel && !abs) return (b) => b.value(v);
  return (b) =>
    approximately(b, v, abs ? cleanText(abs, d) : '0', rel ? cleanText(rel, d) : '0', PYTEST_APPROX);
}

/** A boolean expression's form: comparisons, `not`, `and`/`or`, conditionals; anything else is `@` or `$`. */
function expr(b: FormBuilder, n: Node, d: Dialect): string {
  switch (n.type) {
    case 'parenthesized_expression':
      return n.namedChildren[0] ? expr(b, n.namedChildren[0], d) : b.value(n.text);
    case 'not_operator':
      return b.not(() => expr(b, n.childForFieldName('argument')!, d));
    case 'boolean_operator': {
      const op = n.children[1]?.type ?? 'and';
      const [l, r] = [n.childForFieldName('left')!, n.childForFieldName('right')!];
      return `(${expr(b, l, d)}) ${op} (${expr(b, r, d)})`;
    }
    case 'conditional_expression': {
      const [then, cond, other] = n.namedChildren;
      if (!then || !cond || !other) break;
      return `(${expr(b, then, d)}) if (${expr(b, cond, d)}) else (${expr(b, other, d)})`;
    }
    case 'comparison_operator': {
      const operands = n.namedChildren;
      const ops = n.childrenForFieldName('operators').map((o) => o.text.replace(/\s+/g, ' '));
      if (operands.length !== 2 || ops.length !== 1) break;
      const side = (x: Node): ReturnType<typeof sideOf> => sideOf(x, d, approx(x, d));
      return comparison(b, ops[0]!, side(operands[0]!), side(operands[1]!));
    }
  }
  return sideOf(n, d).subject ? '@' : b.value(cleanText(n, d));
}

const EQUAL =
  /^assert(?:Equals?|ListEqual|DictEqual|TupleEqual|SetEqual|SequenceEqual|MultiLineEqual|_array_equal|_equal)$/;
const COMPARE: Record<string, string> = {
  assertNotEqual: '!=',
  assertNotEquals: '!=',
  assertIs: 'is',
  assertIsNot: 'is not',
  assertIn: 'in',
  assertNotIn: 'not in',
  assertLess: '<',
  assertLessEqual: '<=',
  assertGreater: '>',
  assertGreaterEqual: '>=',
};

/** unittest's and numpy's assertion methods, in the shared vocabulary. */
function method(b: FormBuilder, call: Node, d: Dialect): string {
  const name = fn(call).split('.').at(-1)!;
  const a = positional(call);
  const side = (i: number): ReturnType<typeof sideOf> => sideOf(a[i]!, d);
  if ((EQUAL.test(name) || COMPARE[name]) && a.length >= 2) {
    return comparison(b, COMPARE[name] ?? '==', side(0), side(1));
  }
  if (name === 'assertTrue' && a[0]) return expr(b, a[0], d);
  if (name === 'assertFalse' && a[0]) return b.not(() => expr(b, a[0]!, d));
  if (name === 'assertIsNone') return '@ is None';
  if (name === 'assertIsNotNone') return '@ is not None';
  if (name === 'assertIsInstance') return `@ instanceof ${b.value(a[1]?.text ?? '')}`;
  if (
    /^assert(?:Not)?AlmostEquals?$|^assert_(?:almost_equal|allclose|array_almost_equal)$/.test(name) &&
    a[1]
  ) {
    const v = cleanText(a[1], d);
    const delta = keyword(call, 'delta') ?? keyword(call, 'atol');
    const places =
      keyword(call, 'places') ?? keyword(call, 'decimal') ?? (name.startsWith('assert_') ? undefined : a[2]);
    const rel = keyword(call, 'rtol');
    const not = name.includes('Not') ? 'not ' : '';
    if (!delta && !places && !rel) return `${not}@ == ${b.value(v)}`;
    const abs = delta ? cleanText(delta, d) : places ? String(0.5 * 10 ** -Number(places.text)) : '0';
    // unittest's default is 7 places, numpy's rtol=1e-7 (assert_allclose) or 7 decimals
    const dflt =
      name === 'assert_allclose'
        ? { abs: 0, rel: 1e-7 }
        : { abs: name.startsWith('assert_') ? 1.5e-7 : 5e-8, rel: 0 };
    return `${not}@ == ${approximately(b, v, abs, rel ? cleanText(rel, d) : '0', dflt)}`;
  }
  if (/^assert(?:Raises|Warns)\w*$/.test(name)) return `raises(@, ${b.value(a[0]?.text ?? '')})`;
  return `${name}(${a.map((x) => (sideOf(x, d).subject ? '@' : b.value(cleanText(x, d)))).join(', ')})`;
}

/**
 * The form of a pytest or unittest assertion (an `assert`, an `assert*` call, a `with raises`, the
 * condition of an `if ...: raise`); messages and `match=` are not part of it.
 */
function formOf(node: Node, d: Dialect): AssertionForm | undefined {
  const b = new FormBuilder();
  if (node.type === 'assert_statement') {
    const test = node.namedChildren[0];
    return test ? b.done(expr(b, test, d)) : undefined;
  }
  if (node.type === 'call') return b.done(method(b, node, d));
  if (node.type === 'with_statement') {
    const calls = node.namedChildren[0]?.descendantsOfType('call') ?? [];
    const raises = calls.find((c) => /(?:^|\.)(?:raises|warns|assertRaises\w*|assertWarns\w*)$/.test(fn(c)));
    const kind = raises && /warns/i.test(fn(raises)) ? 'warns' : 'raises';
    return b.done(`${kind}(@, ${b.value(raises ? (positional(raises)[0]?.text ?? '') : '')})`);
  }
  // the condition of `if x != 5: raise ...`: the test fails when it holds, as `assert not (...)`
  return b.done(b.not(() => expr(b, node, d)));
}

/** The forms of pytest and unittest assertions, with the conditions each runs under in front. */
export const pythonForm = underConditions(formOf);
