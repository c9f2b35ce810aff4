import {
  approximately,
  comparison,
  FormBuilder,
  PYTEST_APPROX,
  type AssertionForm,
  type Side,
} from './form.js';
import { namesOf, type TestFileModel } from './names.js';

/**
 * Assertion forms read from text, for the text rules (no grammar installed, or a file that does
 * not parse). Conservative: a shape it cannot take apart keeps its whole text (literals taken
 * out) as its form, so a rewrite into another shape is refused rather than passed as an
 * expectation change.
 */

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' };

/** Where each top-level piece of `text` starts and ends, cut where `at` matches outside brackets and strings. */
function splitTop(text: string, at: RegExp): { parts: string[]; seps: string[] } {
  const parts: string[] = [];
  const seps: string[] = [];
  const stack: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < text.length && text[i] !== c; i++) if (text[i] === '\\') i++;
      continue;
    }
    if (CLOSE[c]) {
      stack.push(CLOSE[c]);
      continue;
    }
    if (stack.length) {
      if (c === stack.at(-1)) stack.pop();
      continue;
    }
    at.lastIndex = i;
    const m = at.exec(text);
    if (!m || m[0].length === 0) continue;
    parts.push(text.slice(start, i).trim());
    seps.push(m[1] ?? m[0].trim());
    start = i + m[0].length;
    i = start - 1;
  }
  parts.push(text.slice(start).trim());
  return { parts, seps };
}

const COMPARE = /\s*(===|!==|==|!=|<=|>=|<|>|\bis\s+not\b|\bis\b|\bnot\s+in\b|\bin\b)\s*/y;
const ARROWS = /->|=>|<<|>>/g;
const LOGIC = /\s*(\band\b|\bor\b|&&|\|\||\bif\b|\?)\s*/y;
const OPS: Record<string, string> = { '===': '==', '!==': '!=' };

const side = (text: string): Side => ({
  text,
  subject: namesOf(text).length > 0,
  calls: /[A-Za-z_]\w*\s*\(/.test(text) && namesOf(text).length > 0,
});

/** Literals taken out: what a shape the reader cannot take apart keeps as its form. */
const shape = (text: string): string => `expr ${text.replace(/(["'`])(?:\\.|(?!\1).)*\1|\b\d[\w.]*/g, '$')}`;

function expr(b: FormBuilder, raw: string): string {
  const text = raw
    .trim()
    .replace(/^\((.*)\)$/s, (m, inner: string) => (splitTop(inner, /\)/y).parts.length === 1 ? inner : m));
  if (/^(?:not\s+|!(?!=))/.test(text)) return b.not(() => expr(b, text.replace(/^(?:not\s+|!)/, '')));
  if (splitTop(text, LOGIC).parts.length > 1) return shape(text);
  const masked = text.replace(ARROWS, (m) => '\0'.repeat(m.length));
  const { seps } = splitTop(masked, COMPARE);
  if (seps.length > 1) return shape(text);
  if (seps.length === 1) {
    const cut = splitTop(masked, COMPARE);
    const left = text.slice(0, cut.parts[0]!.length).trim();
    const right = text.slice(text.length - cut.parts[1]!.length).trim();
    const op = seps[0]!.replace(/\s+/g, ' ');
    return comparison(b, OPS[op] ?? op, side(left), approxSide(right));
  }
  return side(text).subject ? '@' : b.value(text);
}

/** `pytest.approx(5, abs=1e-3)`: the default tolerance reads as the value itself. */
function approxSide(text: string): Side {
  const m = /^(?:pytest\.)?approx\((.*)\)$/s.exec(text);
  if (!m) return side(text);
  const args = splitTop(m[1]!, /,/y).parts;
  const kw = (k: string): string | undefined => args.find((a) => a.startsWith(`${k}=`))?.slice(k.length + 1);
  const [abs, rel] = [kw('abs'), kw('rel')];
  return {
    ...side(text),
    subject: false,
    value: (b) =>
      abs || rel ? approximately(b, args[0]!, abs ?? '0', rel ?? '0', PYTEST_APPROX) : b.value(args[0]!),
  };
}

const EQUAL =
  /^(?:(?:self\.)?assert(?:Equals?|ListEqual|DictEqual)|(?:EXPECT|ASSERT)_(?:EQ|STREQ|DOUBLE_EQ|FLOAT_EQ)|assert\.(?:equal|strictEqual|deepEqual|deepStrictEqual))$/;
const ORDER: Record<string, string> = { LT: '<', LE: '<=', GT: '>', GE: '>=', NE: '!=' };
const MATCHERS: Record<string, string> = {
  toBe: '==',
  toEqual: '==',
  toStrictEqual: '==',
  toBeLessThan: '<',
  toBeLessThanOrEqual: '<=',
  toBeGreaterThan: '>',
  toBeGreaterThanOrEqual: '>=',
};

/** The index of the bracket that closes the one at `open`. */
function closing(text: string, open: number): number {
  const { parts } = splitTop(text.slice(open + 1), /\)/y);
  return parts.length > 1 ? open + 1 + parts[0]!.length : -1;
}

function call(b: FormBuilder, text: string): string | undefined {
  const head = /^([\w.:]+)\s*\(/.exec(text);
  if (!head) return undefined;
  const end = closing(text, head[0].length - 1);
  const name = head[1]!;
  const inner = text.slice(head[0].length, end);
  const rest = text.slice(end + 1);
  if (name === 'expect') {
    const chain = /^((?:\.\w+)*)\.(\w+)\((.*)\)$/s.exec(rest);
    if (!chain) return undefined;
    const [, mods, matcher, args] = chain;
    const op = MATCHERS[matcher!];
    const base = (): string =>
      op
        ? comparison(b, op, { ...side(inner), subject: true }, side(args!))
        : `@.${matcher}(${splitTop(args!, /,/y)
            .parts.filter(Boolean)
            .map((a) => b.value(a))
            .join(', ')})`;
    return mods!.split('.').includes('not') ? b.not(base) : base();
  }
  if (rest.trim() && !rest.trim().startsWith('<<')) return undefined;
  const args = splitTop(inner, /,/y).parts;
  const kind = /^(?:EXPECT|ASSERT)_(\w+)$/.exec(name)?.[1];
  if (EQUAL.test(name) && args.length >= 2) return comparison(b, '==', side(args[0]!), side(args[1]!));
  if (kind && ORDER[kind] && args.length >= 2)
    return comparison(b, ORDER[kind], side(args[0]!), side(args[1]!));
  if (/^(?:(?:EXPECT|ASSERT)_TRUE|(?:self\.)?assertTrue|assert|assert\.ok)$/.test(name) && args[0])
    return expr(b, args[0]);
  if (/^(?:(?:EXPECT|ASSERT)_FALSE|(?:self\.)?assertFalse)$/.test(name) && args[0])
    return b.not(() => expr(b, args[0]!));
  const generic = name.replace(/^ASSERT_/, 'EXPECT_');
  return `${generic}(${args.map((a) => (side(a).subject ? '@' : b.value(a))).join(', ')})`;
}

/** The form of one assertion as the text rules give it, or undefined for a shape it does not know. */
export function textForm(text: string): AssertionForm | undefined {
  const b = new FormBuilder();
  const t = text.trim().replace(/;$/, '');
  if (/^with\b/.test(t)) return undefined;
  const python = /^assert\s+(.*)$/s.exec(t);
  if (python) return b.done(expr(b, splitTop(python[1]!, /,/y).parts[0]!));
  const form = call(b, t);
  return form === undefined ? undefined : b.done(form);
}

/** The model with a form on each assertion the text rules read. */
export function withTextForms<T extends TestFileModel>(model: T): T {
  for (const t of model.tests)
    t.assertions = t.assertions.map((a) => (a.form !== undefined ? a : { ...a, ...textForm(a.text) }));
  return model;
}
