import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const NESTED = ['function_declaration', 'method_definition', 'pair', 'variable_declarator'];
const MAX_INNER = 20;

/** The name a nested function is reachable by: `function f`, `m() {}`, `m: () => ...`, `const f = () => ...`. */
function nestedName(node: SyntaxNode): string | undefined {
  if (node.type === 'function_declaration') return node.childForFieldName('name')?.text;
  // a class's methods are definitions of their own
  if (node.type === 'method_definition')
    return node.parent?.type === 'object' ? node.childForFieldName('name')?.text : undefined;
  const value = node.childForFieldName('value');
  if (!value || !FUNCTION_VALUES.has(value.type)) return undefined;
  const key = node.childForFieldName(node.type === 'pair' ? 'key' : 'name');
  return key && /^(property_identifier|identifier)$/.test(key.type) ? key.text : undefined;
}

/**
 * The names of the functions defined inside each definition (by the definition that owns the
 * row they start on): an object of methods a factory returns, a named inner function. A
 * definition of its own starts on its own first row and is not counted inside another.
 */
export function nestedNames<T extends { start: number }>(
  tree: SyntaxTree,
  ownerAt: (row: number) => T | undefined,
): Map<T, Set<string>> {
  const inner = new Map<T, Set<string>>();
  for (const node of tree.rootNode.descendantsOfType(NESTED)) {
    const name = nestedName(node);
    const owner = ownerAt(node.startPosition.row);
    if (!name || !owner || owner.start === node.startPosition.row) continue;
    const names = inner.get(owner) ?? new Set<string>();
    if (names.size < MAX_INNER) names.add(name);
    inner.set(owner, names);
  }
  return inner;
}
