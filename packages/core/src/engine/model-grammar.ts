import { createRequire } from 'node:module';
import { join } from 'node:path';
import type Parser from 'tree-sitter';
import { Node, plainTree } from '../analysis/plain-tree.js';

export { Node };

export type TreeLanguage = 'python' | 'javascript' | 'typescript' | 'tsx' | 'cpp';

/** The grammar package (and export) that reads each language. */
const GRAMMARS: Record<TreeLanguage, { pkg: string; key?: string }> = {
  python: { pkg: 'tree-sitter-python' },
  javascript: { pkg: 'tree-sitter-javascript' },
  typescript: { pkg: 'tree-sitter-typescript', key: 'typescript' },
  tsx: { pkg: 'tree-sitter-typescript', key: 'tsx' },
  cpp: { pkg: 'tree-sitter-cpp' },
};

/** The language a test file is written in, by its extension. */
export function treeLanguageOf(file: string): TreeLanguage | undefined {
  if (/\.pyi?$/.test(file)) return 'python';
  if (/\.tsx$/.test(file)) return 'tsx';
  if (/\.[cm]?ts$/.test(file)) return 'typescript';
  if (/\.[cm]?jsx?$/.test(file)) return 'javascript';
  if (/\.(?:c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx|inl|ipp)$/i.test(file)) return 'cpp';
  return undefined;
}

// Where grammar packages are looked up: core's own dependencies first, then the project being
// gated (a runner package brings its grammar, installed next to core or in the user's tree).
const requirers = (): NodeJS.Require[] => [
  createRequire(import.meta.url),
  createRequire(join(process.cwd(), 'package.json')),
];

function load<T>(pkg: string): T | undefined {
  for (const req of requirers()) {
    try {
      return req(pkg) as T;
    } catch {
      // not installed where this require looks; the next one may find it
    }
  }
  return undefined;
}

const parsers = new Map<TreeLanguage, Parser | null>();

/**
 * A parser for the language, or undefined when tree-sitter or its grammar is not installed. The
 * native addon is loaded on the first call only: a gate that never checks an edit to a test file
 * (every green run) loads none.
 */
function parserFor(lang: TreeLanguage): Parser | undefined {
  if (!parsers.has(lang)) {
    const TreeSitter = load<typeof Parser>('tree-sitter');
    const spec = GRAMMARS[lang];
    const module = load<Record<string, unknown>>(spec.pkg);
    const grammar = spec.key ? module?.[spec.key] : module;
    let parser: Parser | null = null;
    if (TreeSitter && grammar) {
      try {
        parser = new TreeSitter();
        parser.setLanguage(grammar as Parameters<Parser['setLanguage']>[0]);
      } catch {
        // a grammar built for another tree-sitter ABI: read the file with the text rules instead
        parser = null;
      }
    }
    parsers.set(lang, parser);
  }
  return parsers.get(lang) ?? undefined;
}

/**
 * The syntax tree of a test file, or undefined when the language has no grammar installed or the
 * file does not parse cleanly (a tree with errors could hide an assertion in an error node; the
 * caller then reads both versions with its text rules, so they are compared alike).
 */
export function parseTestFile(file: string, content: string): Node | undefined {
  const lang = treeLanguageOf(file);
  const parser = lang && parserFor(lang);
  if (!parser) return undefined;
  const tree = parser.parse(content, undefined, { bufferSize: Math.max(32 * 1024, content.length * 2 + 1) });
  return tree.rootNode.hasError ? undefined : plainTree(tree, content);
}
