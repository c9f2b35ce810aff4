/**
 * An assertion's form: what it checks with its expected values taken out, in one vocabulary for
 * every language, so that `EXPECT_EQ(x, 5)`, `assert x == 5`, `self.assertEqual(x, 5)` and
 * `expect(x).toBe(5)` all read `@ == $`. The readers build forms; `loosening` compares two.
 *
 * `@` is the value checked; `$` an expected value, which may change freely; `$^` a bound or
 * tolerance that accepts more as it grows (`x < $^`, `abs=$^`); `$v` one that accepts more as it
 * shrinks (`x > $v`).
 */
export interface AssertionForm {
  form: string;
  /** The expected operands, one per placeholder, in order. */
  expected: string[];
}

export type Role = 'exact' | 'upper' | 'lower';
const MARK: Record<Role, string> = { exact: '$', upper: '$^', lower: '$v' };
const FLIPPED: Record<Role, Role> = { exact: 'exact', upper: 'lower', lower: 'upper' };

/** Collects a form's expected operands; inside a negation bounds accept more the other way. */
export class FormBuilder {
  readonly expected: string[] = [];
  private negated = false;

  value(text: string, role: Role = 'exact'): string {
    this.expected.push(text);
    return MARK[this.negated ? FLIPPED[role] : role];
  }

  /** `not (...)`: what passes inside fails outside, so a bound's loose way is reversed. */
  not(inner: () => string): string {
    this.negated = !this.negated;
    const text = inner();
    this.negated = !this.negated;
    return `not (${text})`;
  }

  done(form: string): AssertionForm {
    return { form, expected: this.expected };
  }
}

const REVERSED: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };

/** The role of the expected operand on the right of `@ op $`. */
const roleOf = (op: string): Role => (op.startsWith('<') ? 'upper' : op.startsWith('>') ? 'lower' : 'exact');

/** One side of a comparison: is it the value checked (it mentions the code or a variable), does it call something? */
export interface Side {
  text: string;
  subject: boolean;
  calls: boolean;
  /** Its form when it is an expected value with a form of its own (`pytest.approx(5, abs=1)`). */
  value?: (b: FormBuilder) => string;
}

/**
 * `left op right` with the checked value first: `5 > x` reads `@ < $^`. The side that mentions
 * names is the value checked; of two, the one that calls something (or the left one).
 */
export function comparison(b: FormBuilder, op: string, left: Side, right: Side): string {
  if (!left.subject && !right.subject) return `${b.value(left.text)} ${op} ${b.value(right.text)}`;
  if (left.subject && right.subject && left.calls && right.calls) return `@ ${op} @`;
  const leftChecked = left.subject && (!right.subject || left.calls || !right.calls);
  const expected = leftChecked ? right : left;
  if (op === 'in' || op === 'not in')
    return leftChecked ? `@ ${op} ${b.value(expected.text)}` : `${b.value(expected.text)} ${op} @`;
  const o = leftChecked ? op : (REVERSED[op] ?? op);
  return `@ ${o} ${expected.value ? expected.value(b) : b.value(expected.text, roleOf(o))}`;
}

/** A framework's own tolerance when none is given: approximate equality at it is equality. */
export interface DefaultTolerance {
  abs: number;
  rel: number;
}

export const PYTEST_APPROX: DefaultTolerance = { abs: 1e-12, rel: 1e-6 };

/**
 * `@ == $` within an absolute and a relative tolerance, given as numbers (0 when absent). No looser
 * than the framework's default (`dflt`) for this expected value, it reads as `$`, the value itself:
 * `approx(5, rel=1e-9)` is the equality `approx(5)` already is.
 */
export function approximately(
  b: FormBuilder,
  expected: string,
  abs: string,
  rel: string,
  dflt?: DefaultTolerance,
): string {
  if (dflt) {
    const [e, a, r] = [numberOf(expected), numberOf(abs), numberOf(rel)];
    const size = Number.isNaN(e) ? 0 : Math.abs(e);
    if (!Number.isNaN(a) && !Number.isNaN(r) && Math.max(a, r * size) <= Math.max(dflt.abs, dflt.rel * size))
      return b.value(expected);
  }
  return `${b.value(expected)} within abs ${b.value(abs, 'upper')} rel ${b.value(rel, 'upper')}`;
}

/** A number as source spells it in Python, JS or C++ (`1e-9`, `1_000`, `0.5f`, `-3`), else NaN. */
export function numberOf(text: string): number {
  const t = text
    .trim()
    .replace(/^\((.*)\)$/, '$1')
    .replace(/[_']/g, '')
    .replace(/(?<=\d|\.)[fFlLuU]+$/, '');
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(t) && !/^[-+]?0[xX][\da-fA-F]+$/.test(t))
    return Number.NaN;
  return Number(t);
}

const shown = (form: string): string => form.replace(/\$[\^v]/g, '$');

const EXACT_EQUALITY = '@ == $';

/** The bounds and tolerances of two forms alike: why one moved the loose way, if it did. */
function boundsLoosened(form: string, old: readonly string[], now: readonly string[]): string | undefined {
  const roles = [...form.matchAll(/\$[\^v]?/g)].map((m) => m[0]);
  for (let i = 0; i < roles.length; i++) {
    const [a, b] = [old[i] ?? '', now[i] ?? ''];
    if (roles[i] === '$' || a === b) continue;
    const [x, y] = [numberOf(a), numberOf(b)];
    if (Number.isNaN(x) || Number.isNaN(y))
      return `a bound or tolerance changed from \`${a}\` to \`${b}\`, which cannot be ordered`;
    if (roles[i] === '$^' ? y > x : y < x)
      return `a bound or tolerance moved the loose way, from ${a} to ${b}`;
  }
  return undefined;
}

/**
 * Why `now` accepts what `old` refused, or undefined when it checks as much or more: the same form
 * with its bounds and tolerances kept or narrowed, exact equality (the strictest form), a strict
 * comparison for a non-strict one, or an added expected operand (`throws(@)` to `throws(@, $)`).
 */
export function loosening(old: AssertionForm, now: AssertionForm): string | undefined {
  if (old.form === now.form) return boundsLoosened(old.form, old.expected, now.expected);
  if (now.form === EXACT_EQUALITY) return undefined;
  const strict = old.form.replace(/([<>])=/, '$1');
  if (strict === now.form) return boundsLoosened(now.form, old.expected, now.expected);
  if (old.form.replace(/\)$/, ', $)') === now.form || old.form.replace(/\(\)$/, '($)') === now.form)
    return undefined;
  if (now.form.endsWith(old.form) && /^(?:when \(\?\) )+$/.test(now.form.slice(0, -old.form.length)))
    return 'it now runs only when a condition holds';
  return `its form \`${shown(old.form)}\` became \`${shown(now.form)}\``;
}
