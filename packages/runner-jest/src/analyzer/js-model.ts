import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { testTitlePath } from './test-title.js';

const require = createRequire(import.meta.url);
// grammars are loaded by the first parse, not when the analyzer is built: a green run never parses
const javascript = (): Grammar => require('tree-sitter-javascript') as Grammar;
const typescript = (): { typescript: Grammar; tsx: Grammar } =>
  require('tree-sitter-typescript') as { typescript: Grammar; tsx: Grammar };

/** One cache per grammar: JavaScript (and JSX), TypeScript, TSX. */
export class ScriptCache {
  private readonly js: ParseCache;
  private readonly ts: ParseCache;
  private readonly tsx: ParseCache;

  /** `keep`: trees kept per grammar, by content. */
  constructor(keep = 2000) {
    this.js = new ParseCache(javascript, keep);
    this.ts = new ParseCache(() => typescript().typescript, keep);
    this.tsx = new ParseCache(() => typescript().tsx, keep);
  }

  forFile(file: string): ParseCache {
    if (/\.tsx$/.test(file)) return this.tsx;
    if (/\.[cm]?ts$/.test(file)) return this.ts;
    return this.js;
  }

  parseFile(root: string, file: string): ReturnType<ParseCache['parseFile']> {
    return this.forFile(file).parseFile(join(root, file));
  }
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

/**
 * `name` or `Class.method` of the function enclosing a 1-based line and column; in an anonymous
 * test or suite callback, its titles (`Cart > adds %i + %i`).
 */
export function enclosingSymbol(tree: SyntaxTree, line: number, column = 1): string | undefined {
  let node: SyntaxNode | null = tree.rootNode.namedDescendantForPosition({
    row: line - 1,
    column: Math.max(0, column - 1),
  });
  while (node) {
    if (node.type === 'function_declaration' || node.type === 'method_definition') {
      const name = node.childForFieldName('name')?.text;
      const cls =
        node.type === 'method_definition' ? node.parent?.parent?.childForFieldName('name')?.text : undefined;
      if (name) return cls ? `${cls}.${name}` : name;
    }
    if (FUNCTION_VALUES.has(node.type) && node.parent?.type === 'variable_declarator')
      return node.parent.childForFieldName('name')?.text;
    const test = FUNCTION_VALUES.has(node.type) ? testTitlePath(node) : undefined;
    if (test !== undefined) return test;
    node = node.parent;
  }
  return undefined;
}
