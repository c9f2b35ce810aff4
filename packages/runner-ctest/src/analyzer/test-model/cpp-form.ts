import { approximately, comparison, FormBuilder, type AssertionForm } from '@suture/core/analysis';
import { sideOf, underConditions } from '@suture/core/analysis';
import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, type Dialect } from '@suture/core/analysis';

const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];
const OPS = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** A boolean expression's form: comparisons, `!`, `&&`/`||`, `?:`; anything else is `@` or `$`. */
function expr(b: FormBuilder, n: Node, d: Dialect): string {
  switch (n.type) {
    case 'parenthesized_expression':
    case 'condition_clause': {
      const inner = n.childForFieldName('value') ?? n.namedChildren.at(-1);
      if (inner) return expr(b, inner, d);
      break;
    }
    case 'unary_expression':
      if (n.childForFieldName('operator')?.text === '!')
        return b.not(() => expr(b, n.childForFieldName('argument')!, d));
      break;
    case 'conditional_expression': {
      const [c, t, o] = ['condition', 'consequence', 'alternative'].map((f) => n.childForFieldName(f));
      if (c && t && o) return `(${expr(b, t, d)}) if (${expr(b, c, d)}) else (${expr(b, o, d)})`;
      break;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text ?? '';
      const [l, r] = [n.childForFieldName('left')!, n.childForFieldName('right')!];
      if (op === '&&' || op === '||')
        return `(${expr(b, l, d)}) ${op === '&&' ? 'and' : 'or'} (${expr(b, r, d)})`;
      if (OPS.has(op)) return comparison(b, op, sideOf(l, d), sideOf(r, d));
      break;
    }
  }
  return sideOf(n, d).subject ? '@' : b.value(cleanText(n, d));
}

const SUFFIX: Record<string, string> = {
  EQ: '==',
  STREQ: '==',
  STRCASEEQ: '==',
  FLOAT_EQ: '==',
  DOUBLE_EQ: '==',
  NE: '!=',
  STRNE: '!=',
  STRCASENE: '!=',
  LT: '<',
  LE: '<=',
  GT: '>',
  GE: '>=',
};

/** GoogleTest's `EXPECT_*`/`ASSERT_*` (one form: fatal or not, both fail the test). */
function gtest(b: FormBuilder, kind: string, a: Node[], d: Dialect): string | undefined {
  const v = (i: number): string => b.value(a[i] ? cleanText(a[i], d) : '');
  if (SUFFIX[kind] && a.length >= 2) return comparison(b, SUFFIX[kind], sideOf(a[0]!, d), sideOf(a[1]!, d));
  if (kind === 'NEAR' && a.length >= 3) {
    const [l, r] = [sideOf(a[0]!, d), sideOf(a[1]!, d)];
    const expected = l.subject && !r.subject ? r : !l.subject ? l : r;
    return `@ == ${approximately(b, expected.text, cleanText(a[2]!, d), '0')}`;
  }
  if (kind === 'TRUE' && a[0]) return expr(b, a[0], d);
  if (kind === 'FALSE' && a[0]) return b.not(() => expr(b, a[0]!, d));
  if (kind === 'THROW') return `throws(@, ${v(1)})`;
  if (kind === 'ANY_THROW') return 'throws(@)';
  if (kind === 'NO_THROW') return b.not(() => 'throws(@)');
  return undefined;
}

/** Unity's `TEST_ASSERT_*`: the expected value comes first. */
function unity(b: FormBuilder, kind: string, a: Node[], d: Dialect): string | undefined {
  const v = (n: Node | undefined): string => b.value(n ? cleanText(n, d) : '');
  if (/^(?:TRUE)?$/.test(kind) && a[0]) return expr(b, a[0], d);
  if (kind === 'FALSE' && a[0]) return b.not(() => expr(b, a[0]!, d));
  if (/_WITHIN$/.test(kind) && a.length >= 3)
    return `@ == ${approximately(b, cleanText(a[1]!, d), cleanText(a[0]!, d), '0')}`;
  if (/^EQUAL/.test(kind) && a.length >= 2) return `@ == ${v(a[0])}`;
  if (/^NOT_EQUAL/.test(kind) && a.length >= 2) return `@ != ${v(a[0])}`;
  return undefined;
}

/** The form of a C/C++ assertion macro or call, or the condition of an `if (...) return 1;`. */
function formOf(node: Node, d: Dialect): AssertionForm | undefined {
  const b = new FormBuilder();
  if (node.type !== 'call_expression') return b.done(b.not(() => expr(b, node, d)));
  const name = node.childForFieldName('function')?.text ?? '';
  const a = args(node);
  const known = /^(?:EXPECT|ASSERT)_(\w+)$/.exec(name)
    ? gtest(b, name.replace(/^(?:EXPECT|ASSERT)_/, ''), a, d)
    : /^TEST_ASSERT_?/.test(name)
      ? unity(b, name.replace(/^TEST_ASSERT_?/, ''), a, d)
      : /^(?:assert|CHECK|REQUIRE|CU_ASSERT|ck_assert)$/.test(name) && a[0]
        ? expr(b, a[0], d)
        : undefined;
  if (known !== undefined) return b.done(known);
  const generic = name.replace(/^ASSERT_/, 'EXPECT_');
  return b.done(
    `${generic}(${a.map((x) => (sideOf(x, d).subject ? '@' : b.value(cleanText(x, d)))).join(', ')})`,
  );
}

/** The forms of GoogleTest, Unity and plain C/C++ assertions, with the conditions each runs under in front. */
export const cppForm = underConditions(formOf);
