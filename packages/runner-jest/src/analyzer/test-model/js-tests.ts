import type { PlainNode as Node } from '@suture/core/analysis';
import { collect } from '@suture/core/analysis';

const TEST = /^(?:it|test|xit|xtest|fit)$/;
const SUITE = /^(?:describe|xdescribe|fdescribe|suite)$/;
export const FUNCTIONS = [
  'arrow_function',
  'function_expression',
  'function',
  'function_declaration',
  'generator_function',
  'generator_function_declaration',
];

export const callee = (call: Node): Node | null => call.childForFieldName('function');
export const args = (call: Node): Node[] => call.childForFieldName('arguments')?.namedChildren ?? [];

/** `it.skip.each(...)` -> base `it` and modifiers `skip`, `each`. */
export function chainOf(fn: Node | null): { base: string; mods: string[] } {
  const mods: string[] = [];
  let n = fn;
  while (n && (n.type === 'member_expression' || n.type === 'call_expression')) {
    if (n.type === 'member_expression') {
      mods.unshift(n.childForFieldName('property')!.text);
      n = n.childForFieldName('object');
    } else n = callee(n);
  }
  return { base: n?.type === 'identifier' ? n.text : '', mods };
}

export interface Entry {
  name: string;
  skipped: boolean;
  only: boolean;
  body: Node;
  /** The `.each` tables of the test and of the suites around it. */
  tables: Node[];
}

/** The table of a `test.each(table)(...)` or `describe.each(table)(...)` call, if it is one. */
function tableOf(call: Node): Node | undefined {
  for (
    let n = callee(call);
    n;
    n = n.type === 'call_expression' ? callee(n) : n.childForFieldName('object')
  ) {
    const f = n.type === 'call_expression' ? callee(n) : null;
    if (f?.type === 'member_expression' && /^(?:each|for)$/.test(f.childForFieldName('property')!.text))
      return args(n)[0];
    if (n.type !== 'call_expression' && n.type !== 'member_expression') return undefined;
  }
  return undefined;
}

/**
 * The blocks whose tests a hook skips before each runs (`beforeEach((ctx) => ctx.skip())`,
 * Vitest's runtime skip, in a file or a describe).
 */
function skippedByHooks(root: Node): Node[] {
  return collect(
    root,
    (n) => n.type === 'call_expression' && /^(?:beforeEach|beforeAll)$/.test(callee(n)?.text ?? ''),
  )
    .filter((hook) =>
      args(hook).some(
        (fn) =>
          FUNCTIONS.includes(fn.type) &&
          collect(fn, (x) => x.type === 'call_expression' && /^(?:\w+\.)?skip$/.test(callee(x)?.text ?? ''))
            .length > 0,
      ),
    )
    .map((hook) => {
      let block = hook.parent;
      while (block && block.type !== 'statement_block') block = block.parent;
      return block ?? root;
    });
}

/** The tests of the file: `it`/`test` calls with a title and a function, named by their describes. */
export function testsOf(root: Node): Entry[] {
  const out: Entry[] = [];
  const skipping = skippedByHooks(root);
  for (const c of collect(root, (x) => x.type === 'call_expression')) {
    const { base, mods } = chainOf(callee(c));
    if (!TEST.test(base)) continue;
    const [title, fn] = args(c);
    if (!title || !/^(?:string|template_string)$/.test(title.type) || !fn || !FUNCTIONS.includes(fn.type))
      continue;
    const suites: Array<{ title: string; skipped: boolean; only: boolean }> = [];
    const tables = [tableOf(c)].filter((t): t is Node => !!t);
    for (let p = c.parent; p; p = p.parent) {
      if (p.type !== 'call_expression') continue;
      const s = chainOf(callee(p));
      const [t] = args(p);
      const table = SUITE.test(s.base) ? tableOf(p) : undefined;
      if (table) tables.unshift(table);
      if (SUITE.test(s.base) && t)
        suites.unshift({
          title: t.text.slice(1, -1),
          skipped: s.base === 'xdescribe' || s.mods.includes('skip'),
          only: s.base === 'fdescribe' || s.mods.includes('only'),
        });
    }
    out.push({
      name: [...suites.map((s) => s.title), title.text.slice(1, -1)].join(' > '),
      skipped:
        base.startsWith('x') ||
        mods.some((m) => /^(?:skip|todo|failing|fails|skipIf|runIf)$/.test(m)) ||
        suites.some((s) => s.skipped) ||
        skipping.some((b) => c.startIndex >= b.startIndex && c.endIndex <= b.endIndex),
      only: base === 'fit' || mods.includes('only') || suites.some((s) => s.only),
      body: fn.childForFieldName('body')!,
      tables,
    });
  }
  return out;
}
