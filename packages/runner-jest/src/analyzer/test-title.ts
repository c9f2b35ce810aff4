import type { SyntaxNode } from '@suture/core/analysis';

/** Jest's globals that take a title and a callback: tests, suites, and their focus/skip forms. */
const TEST_GLOBALS = new Set(['test', 'it', 'describe', 'fit', 'xit', 'xtest', 'fdescribe', 'xdescribe']);

const CALLBACKS = new Set(['arrow_function', 'function_expression', 'function']);

/** `test`, `test.each(table)`, `test.only.each(table)`, `describe.skip`: the global the call starts from. */
function globalOf(callee: SyntaxNode | null): string | undefined {
  let node = callee;
  while (node?.type === 'call_expression' || node?.type === 'member_expression')
    node =
      node.type === 'call_expression' ? node.childForFieldName('function') : node.childForFieldName('object');
  return node?.type === 'identifier' ? node.text : undefined;
}

/** The title a `test(...)`/`describe(...)` call gives its callback, as written (a template keeps its `%s`). */
function titleOf(callback: SyntaxNode): string | undefined {
  const args = callback.parent;
  const call = args?.parent;
  if (args?.type !== 'arguments' || call?.type !== 'call_expression') return undefined;
  const callee = globalOf(call.childForFieldName('function'));
  if (!callee || !TEST_GLOBALS.has(callee)) return undefined;
  const first = args.namedChildren[0];
  if (!first || first === callback) return undefined;
  if (first.type === 'string' || first.type === 'template_string') return first.text.slice(1, -1);
  // a title given as a name or an expression still tells the test from its neighbours
  return first.text;
}

/**
 * The titles of the test and suites whose callbacks enclose `callback`, outermost first and joined
 * by ` > `: `Cart > adds %i + %i`. Undefined when `callback` is not a test or suite callback. It
 * names an anonymous test callback the way a function name names a function, and it is the same
 * for every case of a `test.each`, whose full names differ by their values.
 */
export function testTitlePath(callback: SyntaxNode): string | undefined {
  const own = titleOf(callback);
  if (own === undefined) return undefined;
  const suite = suiteTitlePath(callback);
  return suite ? `${suite} > ${own}` : own;
}

/** The titles of the suites whose callbacks enclose `node`, outermost first, joined by ` > `. */
export function suiteTitlePath(node: SyntaxNode): string {
  const titles: string[] = [];
  for (let at = node.parent; at; at = at.parent) {
    const title = CALLBACKS.has(at.type) ? titleOf(at) : undefined;
    if (title !== undefined) titles.unshift(title);
  }
  return titles.join(' > ');
}

/** Whether `callback` is the callback of a `describe(...)` (`describe.each(table)(...)`, `xdescribe`). */
export function isSuiteCallback(callback: SyntaxNode): boolean {
  const args = callback.parent;
  const call = args?.parent;
  if (args?.type !== 'arguments' || call?.type !== 'call_expression') return false;
  const callee = globalOf(call.childForFieldName('function'));
  return callee === 'describe' || callee === 'fdescribe' || callee === 'xdescribe';
}
