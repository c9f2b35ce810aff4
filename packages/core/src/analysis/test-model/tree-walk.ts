import type { AssertionForm } from './form.js';
import type { Node } from './plain-tree.js';
import { isDependency, type AssertionDetail } from './names.js';
import { boundOnce, readThrough, type Binding, type Constants } from './tree-values.js';

export type { Binding, Constants };

/**
 * What differs between languages when an assertion is read from a syntax tree: which nodes are
 * statement lists, comments and names, what ends a test early, which constants a condition folds
 * to, and which enclosing constructs keep an assertion from running or from failing the test.
 */
export interface Dialect {
  comments: ReadonlySet<string>;
  /** Statement lists: a stop among the statements before an assertion keeps it from running. */
  blocks: ReadonlySet<string>;
  /** Nested functions: an assertion in one runs only when it is called. */
  functions: ReadonlySet<string>;
  /** Nodes whose text is a name the assertion depends on. */
  names: ReadonlySet<string>;
  /** Subtrees whose names do not count (string contents; interpolations are their own nodes). */
  opaque: ReadonlySet<string>;
  /** A short label when the statement ends the test (or the loop) every time it runs. */
  stop(statement: Node, k: Constants): string | undefined;
  /** The constant truth value of an expression, when it has one (`k`: the file's constants). */
  truth(expression: Node, k: Constants): boolean | undefined;
  /** Why the way from `parent` into `child` disarms what is in it: a dead branch, a swallowing handler. */
  guard(parent: Node, child: Node, k: Constants): string | undefined;
  /**
   * Every place the scope binds a name: an assignment or declaration with its value, or a binding
   * without one (a parameter, a loop variable, an augmented assignment, an import).
   */
  bindings(scope: Node): Binding[];
  /** Is this node a variable read (not a property, a keyword argument's name or a type)? */
  isVariable(n: Node): boolean;
  /** Does this use of a name throw its value away (`(void)f`, `void f`, `del f`)? Such a use calls nothing. */
  discards(use: Node): boolean;
  /** The name a nested function is bound to, when it has one. */
  functionName(fn: Node): string | undefined;
  /** The assertion's form (what it checks, expected values taken out), when the reader can tell. */
  form?(assertion: Node, d: Dialect): AssertionForm | undefined;
  /** The called function's own name: `add` for `add(...)`, `total` for `cart.total()`. */
  callee(call: Node): string | undefined;
  /** Call node types. */
  calls: ReadonlySet<string>;
}

/** The node's source with comments dropped and whitespace runs made single spaces. */
export function cleanText(node: Node, d: Dialect): string {
  const text = node.text;
  const cuts = node
    .descendantsOfType([...d.comments])
    .map((c) => [c.startIndex - node.startIndex, c.endIndex - node.startIndex] as const);
  let out = '';
  let at = 0;
  for (const [a, b] of cuts) {
    out += `${text.slice(at, a)} `;
    at = b;
  }
  return (out + text.slice(at)).replace(/\s+/g, ' ').trim();
}

/** Every node under `node` (itself included) for which `keep` holds, not entering `skip` subtrees. */
export function collect(node: Node, keep: (n: Node) => boolean, skip?: (n: Node) => boolean): Node[] {
  const out: Node[] = [];
  const stack = [node];
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (keep(n)) out.push(n);
    if (skip?.(n)) continue;
    const children = n.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]!);
  }
  return out;
}

/** The names the given subtrees depend on, keywords and assertion helpers left out. */
export function namesIn(nodes: readonly Node[], d: Dialect): string[] {
  const out = new Set<string>();
  for (const n of nodes)
    for (const x of collect(
      n,
      (c) => d.names.has(c.type),
      (c) => d.opaque.has(c.type),
    ))
      if (isDependency(x.text)) out.add(x.text);
  return [...out];
}

/** The functions the given subtrees call. */
export function callsIn(nodes: readonly Node[], d: Dialect): string[] {
  const out = new Set<string>();
  for (const n of nodes)
    for (const c of collect(n, (x) => d.calls.has(x.type))) {
      const name = d.callee(c);
      if (name && isDependency(name)) out.add(name);
    }
  return [...out];
}

const short = (text: string, n = 40): string => (text.length > n ? `${text.slice(0, n - 3)}...` : text);

/** Is `name` used in `scope` outside `except` (the definition itself), other than to discard it? */
function usedOutside(scope: Node, except: Node, name: string, d: Dialect): boolean {
  return collect(
    scope,
    (n) =>
      d.names.has(n.type) &&
      n.text === name &&
      (n.startIndex < except.startIndex || n.startIndex >= except.endIndex) &&
      !d.discards(n),
    (n) => d.opaque.has(n.type),
  ).some(Boolean);
}

/** Does a nested function run? Bound to a name: when the name is used; passed or applied in place: yes. */
function runs(fn: Node, body: Node, d: Dialect): string | undefined {
  const name = d.functionName(fn);
  // `auto check = [&] {...}`: the binding's own name is no use of it
  const bound = fn.parent && /declarator|assignment/.test(fn.parent.type) ? fn.parent : fn;
  if (name !== undefined) return usedOutside(body, bound, name, d) ? undefined : name;
  // an anonymous function alone in a statement is made and dropped, never called
  const holder = fn.parent?.type === 'parenthesized_expression' ? fn.parent.parent : fn.parent;
  return holder && /^expression_statement$/.test(holder.type) ? '(anonymous)' : undefined;
}

/**
 * Why `child` never runs under `parent` in a brace language whose grammar names its branches as
 * tree-sitter's C, C++ and JavaScript grammars do: the consequence of an `if` whose condition is
 * constant false, the `else` of one constant true, the body of a `while`/`for` whose condition is
 * constant false (a `for` condition may come as an expression statement). `truth` folds a
 * condition to its constant value, when it has one.
 */
export function deadBranch(
  parent: Node,
  child: Node,
  truth: (condition: Node) => boolean | undefined,
  d: Dialect,
): string | undefined {
  const field = (name: string): Node | null => parent.childForFieldName(name);
  const bare = (n: Node): Node => (n.type === 'expression_statement' ? (n.namedChildren[0] ?? n) : n);
  if (parent.type === 'if_statement' && child.id === field('consequence')?.id) {
    const condition = field('condition')!;
    if (truth(condition) === false)
      return `it sits in a branch that never runs (\`if ${cleanText(condition, d)}\`)`;
  }
  if (
    parent.type === 'else_clause' &&
    parent.parent?.type === 'if_statement' &&
    truth(parent.parent.childForFieldName('condition')!) === true
  )
    return 'it sits in an else branch that never runs';
  if (
    (parent.type === 'while_statement' || parent.type === 'for_statement') &&
    child.id === field('body')?.id
  ) {
    const condition = field('condition');
    if (condition && truth(bare(condition)) === false) return 'it sits in a loop that never runs';
  }
  return undefined;
}

/**
 * Why `node` (in the test whose statements are `body`) can no longer run or fail: a stop before it
 * in its block or an enclosing one, a dead branch, a handler that swallows its failure, a function
 * that is never called. Undefined when it runs and can fail.
 */
export function disarmedIn(node: Node, body: Node, d: Dialect, k: Constants): string | undefined {
  for (let child: Node = node; child.id !== body.id && child.parent; child = child.parent) {
    const parent = child.parent;
    if (d.blocks.has(parent.type)) {
      for (const s of parent.namedChildren) {
        if (s.startIndex >= child.startIndex) break;
        const stop = d.stop(s, k);
        if (stop) return `it comes after \`${short(stop)}\` and never runs`;
      }
    }
    if (d.functions.has(parent.type)) {
      const never = runs(parent, body, d);
      if (never) return `it sits in a function that is never called (${never})`;
    }
    const why = d.guard(parent, child, k);
    if (why) return why;
  }
  return undefined;
}

export interface Found {
  node: Node;
  /** Subtrees whose names and calls the assertion depends on (the whole node when absent). */
  subjects?: Node[];
  /** Folded to a constant by the language's own rules (identical sides, a truthy literal). */
  constant?: boolean;
  /** Why it checks nothing whatever it is given (no matcher called). */
  empty?: string;
  /** It passes when an assertion inside it fails (`pytest.raises(AssertionError)`, `EXPECT_NONFATAL_FAILURE`). */
  wrapsFailure?: boolean;
  /** Functions it hands on (a helper's `check(add)`): its calls, as what it checks. */
  passes?: string[];
}

/**
 * The facts of a test's assertions, with every way each may have been disarmed. Each is also read
 * through the locals `body` binds once (and the file's constants): what they were assigned is
 * part of what it checks, and of its `inlined` text.
 */
export function assertionFacts(
  found: readonly Found[],
  body: Node,
  d: Dialect,
  k: Constants,
): AssertionDetail[] {
  const inside = (a: Node, b: Node): boolean =>
    a.id !== b.id && a.startIndex >= b.startIndex && a.endIndex <= b.endIndex;
  const env = new Map<string, Binding>();
  for (const [name, value] of k) env.set(name, { name, at: value, value });
  // a local bound once to a name or a scalar folds like a file constant (`E = BaseException`,
  // `checked = False`); a container it holds may still change, so it does not
  const folded = new Map(k);
  for (const [name, b] of boundOnce(body, d)) {
    env.set(name, b);
    if (/^(?:[\w.]+|"[^"]*"|'[^']*')$/.test(b.value!.text)) folded.set(name, b.value!);
  }
  // `plus = add; plus(2, 3)` calls `add`: a call through a name bound to a function is a call of it
  const aliased = (subjects: readonly Node[]): string[] =>
    callsIn(subjects, d).flatMap((c) => {
      const value = env.get(c)?.value?.text;
      return value && /^[\w.:]+$/.test(value) ? [value.split(/[.:]+/).at(-1)!] : [];
    });
  return found.map((f) => {
    const subjects = f.subjects ?? [f.node];
    const read = readThrough(f.node, d, env);
    const names = namesIn(subjects, d);
    const outer = found.find((o) => o.wrapsFailure && inside(f.node, o.node));
    const wraps = f.wrapsFailure && found.some((o) => inside(o.node, f.node));
    const disarmed =
      f.empty ??
      (outer
        ? `it is wrapped in \`${short(cleanText(outer.node, d))}\`, which passes when it fails`
        : wraps
          ? 'it expects an assertion inside it to fail'
          : disarmedIn(f.node, body, d, folded));
    const text = cleanText(f.node, d);
    return {
      text,
      // a local read through stands for its value (`candidate = lambda a, b: 5` checks no candidate)
      names: [...new Set([...names.filter((n) => !read.through.has(n)), ...namesIn(read.values, d)])],
      calls: [
        ...new Set([...callsIn([...subjects, ...read.values], d), ...aliased(subjects), ...(f.passes ?? [])]),
      ],
      ...(read.text !== text ? { inlined: read.text } : {}),
      constant: names.length === 0 || Boolean(f.constant),
      ...(disarmed ? { disarmed } : {}),
      ...d.form?.(f.node, d),
    };
  });
}

/** A function of a test file that is not a test: a helper when it checks something. */
export interface Unit {
  name: string;
  body: Node;
}

/**
 * The units that check something: those holding an assertion, and those calling one that does
 * (`check_all` calling `check`), found to a fixed point. Returns their own names.
 */
export function checkingUnits(
  units: readonly Unit[],
  asserts: (body: Node) => boolean,
  d: Dialect,
): Set<string> {
  const own = (u: Unit): string => u.name.split('.').at(-1)!;
  const helpers = new Set(units.filter((u) => asserts(u.body)).map(own));
  for (let grew = true; grew;) {
    grew = false;
    for (const u of units)
      if (!helpers.has(own(u)) && callsIn([u.body], d).some((c) => helpers.has(c))) {
        helpers.add(own(u));
        grew = true;
      }
  }
  return helpers;
}

/**
 * A body's calls of helpers (not inside one of its own assertions): each is a check of the test,
 * depending on what it hands the helper (`check(add)` checks `add`).
 */
export function helperCalls(
  body: Node,
  helpers: ReadonlySet<string>,
  found: readonly Found[],
  d: Dialect,
  argumentsOf: (call: Node) => Node[],
): Found[] {
  const within = (n: Node): boolean =>
    found.some((f) => n.startIndex >= f.node.startIndex && n.endIndex <= f.node.endIndex);
  return collect(body, (n) => d.calls.has(n.type))
    .filter((c) => helpers.has(d.callee(c) ?? '') && !within(c))
    .map((c) => ({
      node: c,
      subjects: [c],
      passes: argumentsOf(c)
        .filter((a) => d.isVariable(a))
        .map((a) => a.text),
    }));
}

/** Do two nodes read the same, comments and spacing aside? */
export function same(a: Node | null | undefined, b: Node | null | undefined, d: Dialect): boolean {
  return !!a && !!b && cleanText(a, d) === cleanText(b, d);
}
