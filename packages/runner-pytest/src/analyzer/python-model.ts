import { createRequire } from 'node:module';
import { ParseCache, type Grammar } from '@suture/core/analysis';

// loaded by the first parse, not when the analyzer is built: a green run never parses
const grammar = (): Grammar => createRequire(import.meta.url)('tree-sitter-python') as Grammar;

/** A tree-sitter parser for Python keeping the last `keep` trees by content. */
export function createPythonCache(keep = 2000): ParseCache {
  return new ParseCache(grammar, keep);
}
