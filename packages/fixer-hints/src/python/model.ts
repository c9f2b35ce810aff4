import { createRequire } from 'node:module';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';

// loaded by the first parse, not when the fixer is loaded: a green run never asks it
const grammar = (): Grammar => createRequire(import.meta.url)('tree-sitter-python') as Grammar;
export const pythonCache = new ParseCache(grammar);

function bound(node: SyntaxNode, out: Set<string>): void {
  // names bound by assignment targets, for loops, with-as, function/class definitions, imports, params
  for (const n of node.descendantsOfType([
    'assignment',
    'augmented_assignment',
    'for_statement',
    'with_item',
    'for_in_clause',
    'named_expression',
  ])) {
    const target = n.childForFieldName('left') ?? n.childForFieldName('name') ?? n.childForFieldName('value');
    for (const id of target ? [target, ...target.descendantsOfType('identifier')] : [])
      if (id.type === 'identifier') out.add(id.text);
  }
  for (const n of node.descendantsOfType(['function_definition', 'class_definition'])) {
    const name = n.childForFieldName('name')?.text;
    if (name) out.add(name);
  }
  for (const n of node.descendantsOfType('parameters'))
    for (const id of n.descendantsOfType('identifier')) out.add(id.text);
  for (const n of node.descendantsOfType(['import_statement', 'import_from_statement'])) {
    for (const a of n.descendantsOfType('aliased_import')) out.add(a.childForFieldName('alias')!.text);
    for (const d of n.childrenForFieldName('name'))
      if (d.type === 'dotted_name') out.add(d.text.split('.')[0]!);
  }
}

/** Names a module binds at top level (functions, classes, assignments, imports), not other functions' locals. */
export function moduleNames(tree: SyntaxTree): Set<string> {
  const out = new Set<string>();
  for (const child of tree.rootNode.namedChildren) {
    if (
      child.type === 'function_definition' ||
      child.type === 'class_definition' ||
      child.type === 'decorated_definition'
    ) {
      const def = child.type === 'decorated_definition' ? child.childForFieldName('definition') : child;
      const name = def?.childForFieldName('name')?.text;
      if (name) out.add(name);
    } else bound(child, out);
  }
  return out;
}

/** Names the functions enclosing a line bind (parameters and locals, closures' included). */
export function localNames(tree: SyntaxTree, line: number): Set<string> {
  const out = new Set<string>();
  const text = tree.rootNode.text.split('\n')[line - 1] ?? '';
  const column = text.length - text.trimStart().length;
  let node: SyntaxNode | null = tree.rootNode.namedDescendantForPosition({ row: line - 1, column });
  while (node) {
    if (node.type === 'function_definition') bound(node, out);
    node = node.parent;
  }
  return out;
}

/** Methods and `self.x` attributes of a class defined in the tree. */
export function classMembers(tree: SyntaxTree, className: string): Set<string> | undefined {
  const cls = tree.rootNode
    .descendantsOfType('class_definition')
    .find((c) => c.childForFieldName('name')?.text === className);
  if (!cls) return undefined;
  const out = new Set<string>();
  for (const fn of cls.descendantsOfType('function_definition')) out.add(fn.childForFieldName('name')!.text);
  for (const attr of cls.descendantsOfType('attribute'))
    if (attr.childForFieldName('object')?.text === 'self') out.add(attr.childForFieldName('attribute')!.text);
  for (const a of cls.childForFieldName('body')?.namedChildren ?? [])
    if (a.type === 'expression_statement') bound(a, out);
  return out;
}

/** Where a new top-level import goes: after the docstring, __future__ imports and existing imports. */
export function importInsertLine(tree: SyntaxTree): number {
  let after = 0;
  // the module docstring is the first statement, after any comments (a licence header) and blank
  // lines: an import above it would make it an ordinary string and `__doc__` None
  let statements = 0;
  for (const child of tree.rootNode.namedChildren) {
    const isDoc =
      statements === 0 && child.type === 'expression_statement' && child.namedChildren[0]?.type === 'string';
    if (child.type !== 'comment') statements++;
    if (
      isDoc ||
      child.type === 'future_import_statement' ||
      child.type === 'import_statement' ||
      child.type === 'import_from_statement' ||
      child.type === 'comment'
    ) {
      after = child.endPosition.row + 1;
      continue;
    }
    break;
  }
  return after; // 0-based index of the line before which to insert
}
