import type { Node } from './plain-tree.js';

/** A place where a scope binds a name; `value` when it binds it to an expression. */
export interface Binding {
  name: string;
  /** The binding node (an assignment, a declarator, a parameter): where the name starts to hold `value`. */
  at: Node;
  value?: Node;
}

/** Names a file binds once, at its top level, to a value: what a condition or a loop may name. */
export type Constants = ReadonlyMap<string, Node>;

export const NO_CONSTANTS: Constants = new Map();

/** What reading through names needs of a language (a part of the readers' `Dialect`). */
export interface ValueDialect {
  comments: ReadonlySet<string>;
  blocks: ReadonlySet<string>;
  bindings(scope: Node): Binding[];
  isVariable(n: Node): boolean;
}

/** The names `scope` binds exactly once, to a value (a name bound twice, or without a value, may hold anything). */
export function boundOnce(scope: Node, d: ValueDialect): Map<string, Binding> {
  const seen = new Map<string, Binding | null>();
  for (const b of d.bindings(scope)) seen.set(b.name, seen.has(b.name) || !b.value ? null : b);
  const out = new Map<string, Binding>();
  for (const [name, b] of seen) if (b) out.set(name, b);
  return out;
}

/** The file's constants: names bound once in the whole file, by a statement of its top level. */
export function fileConstants(root: Node, d: ValueDialect): Constants {
  const out = new Map<string, Node>();
  for (const [name, b] of boundOnce(root, d)) {
    let block = b.at.parent;
    while (block && !d.blocks.has(block.type)) block = block.parent;
    if (block?.id === root.id) out.set(name, b.value!);
  }
  return out;
}

// a value read in place needs no parentheses when it is one name, call, index or literal
function primary(text: string): boolean {
  if (/^(?:[\w.]+|-?\d[\w.]*|"[^"\\]*"|'[^'\\]*')$/.test(text)) return true;
  const head = /^[\w.]+[([]/.exec(text);
  if (!head) return false;
  let depth = 0;
  for (let i = head[0].length - 1; i < text.length; i++) {
    if ('([{'.includes(text[i]!)) depth++;
    else if (')]}'.includes(text[i]!) && --depth === 0) return i === text.length - 1;
  }
  return false;
}

export interface ReadThrough {
  /** The node's text with comments dropped and each local read replaced by what it was assigned. */
  text: string;
  /** The values read through (assigned expressions), for the names and calls they add. */
  values: Node[];
  /** The names read through: what the assertion depends on is their values, not the names. */
  through: Set<string>;
}

/**
 * `node` read through the names it uses: a name bound once in `env`, before `node`, stands for its
 * value (`result = add(2, 3); assert result == 5` reads `assert add(2, 3) == 5`), so an assertion
 * through a local variable is the same assertion as one made in place.
 */
export function readThrough(
  node: Node,
  d: ValueDialect,
  env: ReadonlyMap<string, Binding>,
  depth = 4,
): ReadThrough {
  const values: Node[] = [];
  const through = new Set<string>();
  const read = (n: Node, left: number): string => {
    const cuts: Array<[number, number, string]> = [];
    const stack = [n];
    for (let x = stack.pop(); x; x = stack.pop()) {
      if (d.comments.has(x.type)) {
        cuts.push([x.startIndex, x.endIndex, ' ']);
        continue;
      }
      const b = left > 0 && d.isVariable(x) ? env.get(x.text) : undefined;
      if (
        b?.value &&
        b.at.endIndex <= x.startIndex &&
        !(b.value.startIndex <= x.startIndex && x.endIndex <= b.value.endIndex)
      ) {
        values.push(b.value);
        through.add(x.text);
        const inner = read(b.value, left - 1);
        cuts.push([x.startIndex, x.endIndex, primary(inner) ? inner : `(${inner})`]);
        continue;
      }
      for (let i = x.children.length - 1; i >= 0; i--) stack.push(x.children[i]!);
    }
    cuts.sort((a, b) => a[0] - b[0]);
    const text = n.text;
    let out = '';
    let at = n.startIndex;
    for (const [a, b, put] of cuts) {
      out += text.slice(at - n.startIndex, a - n.startIndex) + put;
      at = b;
    }
    return (out + text.slice(at - n.startIndex)).replace(/\s+/g, ' ').trim();
  };
  return { text: read(node, depth), values, through };
}

/** A comparison of two literal values (`1 > 0`, `"a" == "a"`), when `op` is one the readers fold. */
export function foldComparison(op: string, l: number | string, r: number | string): boolean | undefined {
  if (typeof l !== typeof r || (typeof l === 'number' && (Number.isNaN(l) || Number.isNaN(r as number))))
    return undefined;
  const table: Record<string, boolean> = {
    '==': l === r,
    '===': l === r,
    is: l === r,
    '!=': l !== r,
    '!==': l !== r,
    'is not': l !== r,
    '<': l < r,
    '>': l > r,
    '<=': l <= r,
    '>=': l >= r,
  };
  return table[op];
}

/** The file's constants with the names `body` binds once to a value: what a loop in it may walk. */
export function withLocals(k: Constants, body: Node, d: ValueDialect): Constants {
  const out = new Map(k);
  for (const [name, b] of boundOnce(body, d)) out.set(name, b.value!);
  return out;
}
