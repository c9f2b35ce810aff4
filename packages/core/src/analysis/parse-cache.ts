import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type Parser from 'tree-sitter';

export type SyntaxTree = Parser.Tree;
export type SyntaxNode = Parser.SyntaxNode;
/** A tree-sitter grammar object as exported by `tree-sitter-python`, `tree-sitter-cpp`, ... */
export type Grammar = Parameters<Parser['setLanguage']>[0];

export interface ParsedFile {
  source: string;
  tree: SyntaxTree;
  hash: string;
}

/**
 * Parses files with one tree-sitter grammar and caches the trees by content hash, so a file the
 * scope walk reaches from several tests is parsed once, and an edited file is parsed again.
 * tree-sitter and the grammar (a function that loads it) are loaded by the first parse: an
 * analyzer or fixer that is only constructed, as on a green run, costs no native addon.
 */
export class ParseCache {
  private loaded: Parser | undefined;
  private readonly byHash = new Map<string, ParsedFile>();

  constructor(
    private readonly grammar: Grammar | (() => Grammar),
    private readonly maxEntries = 2000,
  ) {}

  private get parser(): Parser {
    if (!this.loaded) {
      const TreeSitter = createRequire(import.meta.url)('tree-sitter') as typeof Parser;
      const parser = new TreeSitter();
      parser.setLanguage(typeof this.grammar === 'function' ? this.grammar() : this.grammar);
      this.loaded = parser;
    }
    return this.loaded;
  }

  /** Parse a file from disk; undefined when it cannot be read. */
  async parseFile(absPath: string): Promise<ParsedFile | undefined> {
    let source: string;
    try {
      source = await readFile(absPath, 'utf8');
    } catch {
      return undefined;
    }
    return this.parseText(source);
  }

  parseText(source: string): ParsedFile {
    const hash = createHash('sha1').update(source).digest('hex');
    const cached = this.byHash.get(hash);
    if (cached) return cached;
    // tree-sitter's default buffer is 32 KiB: pass a bufferSize that fits larger files.
    const tree = this.parser.parse(source, undefined, {
      bufferSize: Math.max(32 * 1024, source.length * 2 + 1),
    });
    const parsed = { source, tree, hash };
    if (this.byHash.size >= this.maxEntries) this.byHash.delete(this.byHash.keys().next().value as string);
    this.byHash.set(hash, parsed);
    return parsed;
  }

  get size(): number {
    return this.byHash.size;
  }
}

/** Walks up from `node` to the nearest ancestor whose type is in `types`. */
export function enclosing(node: SyntaxNode | null, types: ReadonlySet<string>): SyntaxNode | null {
  let current = node;
  while (current && !types.has(current.type)) current = current.parent;
  return current;
}

/** The smallest named node covering a 1-based line (and optional 1-based column). */
export function nodeAtLine(tree: SyntaxTree, line: number, column = 1): SyntaxNode {
  const point = { row: line - 1, column: Math.max(0, column - 1) };
  return tree.rootNode.namedDescendantForPosition(point);
}
