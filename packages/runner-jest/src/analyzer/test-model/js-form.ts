import { approximately, comparison, FormBuilder, type AssertionForm } from '@suture/core/analysis';
import { sideOf, underConditions } from '@suture/core/analysis';
import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, type Dialect } from '@suture/core/analysis';

const callee = (call: Node): Node | null => call.childForFieldName('function');
const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];
const OPS: Record<string, string> = { '===': '==', '==': '==', '!==': '!=', '!=': '!=' };

/** A boolean expression's form: comparisons, `!`, `&&`/`||`, `?:`; anything else is `@` or `$`. */
export function jsExpr(b: FormBuilder, n: Node, d: Dialect): string {
  switch (n.type) {
    case 'parenthesized_expression':
      if (n.namedChildren[0]) return jsExpr(b, n.namedChildren[0], d);
      break;
    case 'unary_expression':
      if (n.childForFieldName('operator')?.text === '!')
        return b.not(() => jsExpr(b, n.childForFieldName('argument')!, d));
      break;
    case 'ternary_expression': {
      const [c, t, o] = ['condition', 'consequence', 'alternative'].map((f) => n.childForFieldName(f));
      if (c && t && o) return `(${jsExpr(b, t, d)}) if (${jsExpr(b, c, d)}) else (${jsExpr(b, o, d)})`;
      break;
    }
    case 'binary_expression': {
      const op = n.childForFieldName('operator')?.text ?? '';
      const [l, r] = [n.childForFieldName('left')!, n.childForFieldName('right')!];
      if (op === '&&' || op === '||')
        return `(${jsExpr(b, l, d)}) ${op === '&&' ? 'and' : 'or'} (${jsExpr(b, r, d)})`;
      if (OPS[op] || /^[<>]=?$/.test(op) || op === 'instanceof' || op === 'in')
        return comparison(b, OPS[op] ?? op, sideOf(l, d), sideOf(r, d));
      break;
    }
  }
  return sideOf(n, d).subject ? '@' : b.value(cleanText(n, d));
}

const ORDER: Record<string, string> = {
  toBeLessThan: '<',
  toBeLessThanOrEqual: '<=',
  toBeGreaterThan: '>',
  toBeGreaterThanOrEqual: '>=',
};
const FIXED: Record<string, string> = {
  toBeTruthy: '@',
  toBeNull: '@ is null',
  toBeUndefined: '@ is undefined',
  toBeDefined: '@ is not undefined',
  toBeNaN: '@ is NaN',
  toHaveBeenCalled: 'called(@)',
};

/** A matcher's form over the checked value `@` (`toBe(5)`: `@ == $`). */
function matcherForm(b: FormBuilder, matcher: string, a: Node[], d: Dialect): string {
  const v = (i: number, role?: 'upper' | 'lower'): string => b.value(a[i] ? cleanText(a[i], d) : '', role);
  if (/^(?:toBe|toEqual|toStrictEqual)$/.test(matcher)) return `@ == ${v(0)}`;
  if (ORDER[matcher])
    return `@ ${ORDER[matcher]} ${v(0, ORDER[matcher]!.startsWith('<') ? 'upper' : 'lower')}`;
  if (FIXED[matcher]) return FIXED[matcher];
  if (matcher === 'toBeFalsy') return b.not(() => '@');
  if (matcher === 'toBeCloseTo') {
    // Jest's default is 2 digits; a precision given is a tolerance of 10^-digits / 2
    if (!a[1]) return `@ == ${v(0)}`;
    const digits = Number(cleanText(a[1], d));
    const tolerance = Number.isNaN(digits) ? cleanText(a[1], d) : String(10 ** -digits / 2);
    return `@ == ${approximately(b, a[0] ? cleanText(a[0], d) : '', tolerance, '0', { abs: 0.005, rel: 0 })}`;
  }
  if (/^(?:toContain|toContainEqual)$/.test(matcher)) return `${v(0)} in @`;
  if (matcher === 'toHaveLength') return `len(@) == ${v(0)}`;
  if (/^(?:toThrow|toThrowError)$/.test(matcher)) return a.length ? `throws(@, ${v(0)})` : 'throws(@)';
  if (matcher === 'toBeInstanceOf') return `@ instanceof ${v(0)}`;
  return `@.${matcher}(${a.map((_, i) => v(i)).join(', ')})`;
}

const BOOLEAN = new Set([
  'binary_expression',
  'unary_expression',
  'ternary_expression',
  'parenthesized_expression',
]);

/** `expect(x === 5).toBe(true)` reads as `x === 5` itself, so `expect(x === 5 || true)` shows its `or`. */
function booleanForm(
  b: FormBuilder,
  subject: Node | undefined,
  matcher: string,
  a: Node[],
  d: Dialect,
): string | undefined {
  if (!subject || !BOOLEAN.has(subject.type)) return undefined;
  const expected = a[0]?.text;
  if (matcher === 'toBeTruthy' || (/^(?:toBe|toEqual|toStrictEqual)$/.test(matcher) && expected === 'true'))
    return jsExpr(b, subject, d);
  if (matcher === 'toBeFalsy' || (/^(?:toBe|toEqual|toStrictEqual)$/.test(matcher) && expected === 'false'))
    return b.not(() => jsExpr(b, subject, d));
  return undefined;
}

const NODE_EQUAL = /^(?:equal|strictEqual|deepEqual|deepStrictEqual)$/;
const NODE_UNEQUAL = /^(?:notEqual|notStrictEqual|notDeepEqual|notDeepStrictEqual)$/;

/** node:assert's forms: `assert(x)`/`assert.ok(x)` by the expression, the rest by method. */
function nodeAssert(b: FormBuilder, call: Node, d: Dialect): string | undefined {
  const f = callee(call)!;
  const method = f.type === 'member_expression' ? f.childForFieldName('property')!.text : 'ok';
  const a = args(call);
  const v = (i: number): string => b.value(a[i] ? cleanText(a[i], d) : '');
  if (method === 'ok' && a[0]) return jsExpr(b, a[0], d);
  if (NODE_EQUAL.test(method)) return `@ == ${v(1)}`;
  if (NODE_UNEQUAL.test(method)) return `@ != ${v(1)}`;
  if (/^(?:throws|rejects)$/.test(method)) return a.length > 1 ? `throws(@, ${v(1)})` : 'throws(@)';
  if (method === 'match') return `@.toMatch(${v(1)})`;
  return `assert.${method}(${a.map((_, i) => (i === 0 ? '@' : v(i))).join(', ')})`;
}

/** The form of a Jest/Vitest `expect` chain, a node:assert call, or the condition of an `if (...) throw`. */
function formOf(node: Node, d: Dialect): AssertionForm | undefined {
  const b = new FormBuilder();
  if (node.type !== 'call_expression') return b.done(b.not(() => jsExpr(b, node, d)));
  const f = callee(node);
  if (f?.type === 'identifier' && f.text === 'assert') return b.done(nodeAssert(b, node, d)!);
  if (f?.type !== 'member_expression') return undefined;
  const mods: string[] = [];
  let o = f.childForFieldName('object')!;
  while (o.type === 'member_expression') {
    mods.unshift(o.childForFieldName('property')!.text);
    o = o.childForFieldName('object')!;
  }
  if (o.type === 'identifier' && o.text === 'assert') {
    const form = nodeAssert(b, node, d);
    return form === undefined ? undefined : b.done(form);
  }
  if (o.type !== 'call_expression' || callee(o)?.text !== 'expect') return undefined;
  const matcher = f.childForFieldName('property')!.text;
  const negated = mods.includes('not');
  const subject = args(o)[0];
  const base = (): string =>
    booleanForm(b, subject, matcher, args(node), d) ?? matcherForm(b, matcher, args(node), d);
  const form = negated ? b.not(base) : base();
  return b.done(mods.includes('rejects') ? `rejects ${form}` : form);
}

/** The forms of Jest, Vitest and node:assert assertions, with the conditions each runs under in front. */
export const jsForm = underConditions(formOf);
