import { access, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';

const grammar = createRequire(import.meta.url)('tree-sitter-cpp') as Grammar;
export const createCppCache = (): ParseCache => new ParseCache(grammar);

const TEST_MACROS = new Set(['TEST', 'TEST_F', 'TEST_P', 'TYPED_TEST', 'TYPED_TEST_P']);
const SOURCE = /\.(c|cc|cpp|cxx|h|hh|hpp|hxx)$/;
const SKIP_DIRS = new Set([
  '.git',
  'node_modules',
  '.suture',
  'build',
  'build-suture',
  'cmake-build-debug',
  'cmake-build-release',
  '_deps',
  'third_party',
  'vendor',
]);

function declaratorName(node: SyntaxNode | null): string | undefined {
  let d = node;
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const name = d?.childForFieldName('declarator');
  if (!name) return undefined;
  return name.text.split('::').pop()?.replace(/^~/, '~');
}

/** `Suite.Name` of a `TEST(Suite, Name) { ... }` definition, or undefined. */
export function testName(fn: SyntaxNode): string | undefined {
  let d: SyntaxNode | null = fn.childForFieldName('declarator');
  while (d && d.type !== 'function_declarator') d = d.childForFieldName('declarator');
  const macro = d?.childForFieldName('declarator')?.text;
  if (!macro || !TEST_MACROS.has(macro)) return undefined;
  const params = d!.childForFieldName('parameters')?.namedChildren.map((p) => p.text.trim()) ?? [];
  return params.length === 2 ? `${params[0]}.${params[1]}` : undefined;
}

/** Function definitions by name (last component of a qualified name), and tests by `Suite.Name`. */
export function definitions(tree: SyntaxTree): Map<string, SyntaxNode> {
  const defs = new Map<string, SyntaxNode>();
  for (const fn of tree.rootNode.descendantsOfType('function_definition')) {
    const test = testName(fn);
    const name = test ? `TEST:${test}` : declaratorName(fn.childForFieldName('declarator'));
    if (name && !defs.has(name)) defs.set(name, fn);
  }
  return defs;
}

/** Names called inside a node: `f()`, `ns::f()`, `obj.m()`, `obj->m()`. */
export function calls(node: SyntaxNode): string[] {
  const names = new Set<string>();
  for (const call of node.descendantsOfType('call_expression')) {
    const fn = call.childForFieldName('function');
    if (!fn) continue;
    const name =
      fn.type === 'field_expression' ? fn.childForFieldName('field')?.text : fn.text.split('::').pop();
    if (name && /^~?\w+$/.test(name)) names.add(name);
  }
  return [...names];
}

/** `#include "x.h"` paths (system `<...>` headers are not the project's). */
export function includes(tree: SyntaxTree): string[] {
  return tree.rootNode.descendantsOfType('preproc_include').flatMap((inc) => {
    const path = inc.childForFieldName('path');
    return path?.type === 'string_literal' ? [path.text.slice(1, -1)] : [];
  });
}

/** Qualified name of the function enclosing a 1-based line (`Suite.Name` for a TEST body). */
export function enclosingFunction(tree: SyntaxTree, line: number): string | undefined {
  for (const fn of tree.rootNode.descendantsOfType('function_definition')) {
    if (fn.startPosition.row <= line - 1 && fn.endPosition.row >= line - 1)
      return testName(fn) ?? declaratorName(fn.childForFieldName('declarator'));
  }
  return undefined;
}

/** Every C/C++ source and header of the project (build and vendor folders skipped). */
export async function projectSources(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
      if (e.isDirectory()) {
        if (
          !SKIP_DIRS.has(e.name) &&
          !e.name.startsWith('.') &&
          !(await access(join(dir, e.name, 'CMakeCache.txt')).then(
            () => true,
            () => false,
          ))
        )
          await walk(join(dir, e.name), posix.join(rel, e.name));
      } else if (SOURCE.test(e.name)) out.push(posix.join(rel, e.name));
      if (out.length > 5000) return;
    }
  };
  await walk(root, '');
  return out;
}

/** Resolves `#include "x.h"` from a file: next to it first, then anywhere in the project by path suffix. */
export function resolveInclude(
  fromFile: string,
  path: string,
  sources: readonly string[],
): string | undefined {
  const local = posix.normalize(posix.join(posix.dirname(fromFile), path));
  if (sources.includes(local)) return local;
  return sources.find((s) => s === path || s.endsWith(`/${path}`));
}

/** Implementation files of a header: same stem, a source extension. */
export function implementationsOf(header: string, sources: readonly string[]): string[] {
  const stem = posix.basename(header).replace(/\.(h|hh|hpp|hxx)$/, '');
  if (stem === posix.basename(header)) return [];
  return sources.filter(
    (s) => /\.(c|cc|cpp|cxx)$/.test(s) && posix.basename(s).replace(/\.(c|cc|cpp|cxx)$/, '') === stem,
  );
}
