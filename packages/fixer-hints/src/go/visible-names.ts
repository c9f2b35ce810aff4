import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { ParseCache, type Grammar, type SyntaxNode } from '@suture/core/analysis';

// loaded by the first parse, not when the fixer is loaded: a green run never asks it
const grammar = (): Grammar => createRequire(import.meta.url)('tree-sitter-go') as Grammar;
const goCache = new ParseCache(grammar);

/** Go's predeclared identifiers: types, constants, the zero value and the built-in functions. */
export const GO_PREDECLARED = [
  'any',
  'bool',
  'byte',
  'comparable',
  'complex64',
  'complex128',
  'error',
  'float32',
  'float64',
  'int',
  'int8',
  'int16',
  'int32',
  'int64',
  'rune',
  'string',
  'uint',
  'uint8',
  'uint16',
  'uint32',
  'uint64',
  'uintptr',
  'true',
  'false',
  'iota',
  'nil',
  'append',
  'cap',
  'clear',
  'close',
  'complex',
  'copy',
  'delete',
  'imag',
  'len',
  'make',
  'max',
  'min',
  'new',
  'panic',
  'print',
  'println',
  'real',
  'recover',
];

const FUNCTIONS = ['function_declaration', 'method_declaration', 'func_literal'];

const same = (a: SyntaxNode, b: SyntaxNode): boolean =>
  a.type === b.type && a.startIndex === b.startIndex && a.endIndex === b.endIndex;

const identifiers = (node: SyntaxNode | null | undefined): string[] =>
  node
    ? node.type === 'identifier'
      ? [node.text]
      : node.descendantsOfType('identifier').map((n) => n.text)
    : [];

const contains = (node: SyntaxNode, row: number, column: number): boolean =>
  (node.startPosition.row < row || (node.startPosition.row === row && node.startPosition.column <= column)) &&
  (node.endPosition.row > row || (node.endPosition.row === row && node.endPosition.column > column));

/** The package clause of a Go file: `words`, or `words_test` for an external test package. */
const packageOf = (root: SyntaxNode): string | undefined =>
  root.namedChildren.find((c) => c.type === 'package_clause')?.namedChildren[0]?.text;

/** The names a Go file declares at package level, and the package names its imports bind. */
function fileNames(root: SyntaxNode): { declared: string[]; imports: string[] } {
  const declared: string[] = [];
  const imports: string[] = [];
  for (const child of root.namedChildren) {
    if (child.type === 'function_declaration') declared.push(...identifiers(child.childForFieldName('name')));
    if (child.type === 'type_declaration')
      for (const spec of child.namedChildren) {
        const name = spec.childForFieldName('name')?.text;
        if (name && (spec.type === 'type_spec' || spec.type === 'type_alias')) declared.push(name);
      }
    if (child.type === 'var_declaration' || child.type === 'const_declaration')
      for (const spec of child.descendantsOfType(['var_spec', 'const_spec']))
        for (const name of spec.childrenForFieldName('name')) declared.push(name.text);
    if (child.type === 'import_declaration')
      for (const spec of child.descendantsOfType('import_spec')) {
        const alias = spec.childForFieldName('name')?.text;
        const path = spec.childForFieldName('path')?.text.replace(/^["`]|["`]$/g, '');
        if (alias && alias !== '_' && alias !== '.') imports.push(alias);
        else if (!alias && path)
          imports.push(
            path
              .split('/')
              .pop()!
              .replace(/^go-|\.v\d+$/g, ''),
          );
      }
  }
  return { declared, imports };
}

/**
 * The names a function declares that are in scope at (row, column): its receiver, parameters and
 * results anywhere in it, and the locals declared before that place in a block holding it.
 */
function localNames(fn: SyntaxNode, row: number, column: number): string[] {
  const out: string[] = [];
  for (const field of ['receiver', 'parameters', 'result'])
    for (const p of fn
      .childForFieldName(field)
      ?.descendantsOfType(['parameter_declaration', 'variadic_parameter_declaration']) ?? [])
      for (const name of p.childrenForFieldName('name')) out.push(name.text);
  const before = (n: SyntaxNode): boolean =>
    n.endPosition.row < row || (n.endPosition.row === row && n.endPosition.column <= column);
  const inScope = (n: SyntaxNode): boolean => {
    // the nearest block, or the if/for/switch statement whose header declares the name
    for (let up = n.parent; up && up.startIndex >= fn.startIndex && !same(up, fn); up = up.parent)
      if (up.type === 'block' || up.type.endsWith('_statement') || up.type.endsWith('_clause'))
        return contains(up, row, column);
    return true;
  };
  for (const n of fn.descendantsOfType(['short_var_declaration', 'range_clause'])) {
    if (!before(n.childForFieldName('left') ?? n) || !inScope(n)) continue;
    out.push(...identifiers(n.childForFieldName('left')));
  }
  for (const spec of fn.descendantsOfType(['var_spec', 'const_spec']))
    if (before(spec) && inScope(spec.parent ?? spec))
      for (const name of spec.childrenForFieldName('name')) out.push(name.text);
  return out;
}

/**
 * The names visible at `line`:`column` (1-based) of a Go file, in lookup order: the enclosing
 * functions' locals, then the package's own (every file of its folder in the same package; test
 * files only for a test file) with the file's imports, then Go's predeclared identifiers.
 * Undefined when the file cannot be read. `texts` keeps the files read, for the next name asked
 * about in the same folder.
 */
export async function visibleGoNames(
  root: string,
  file: string,
  line: number,
  column: number,
  texts = new Map<string, Promise<string | undefined>>(),
): Promise<string[][] | undefined> {
  const read = (path: string): Promise<string | undefined> => {
    let text = texts.get(path);
    if (!text) texts.set(path, (text = readFile(join(root, path), 'utf8').catch(() => undefined)));
    return text;
  };
  const text = await read(file);
  if (text === undefined) return undefined;
  const { tree } = goCache.parseText(text);
  const row = line - 1;
  const col = column - 1;
  const locals: string[] = [];
  for (const fn of tree.rootNode.descendantsOfType(FUNCTIONS))
    if (contains(fn, row, col)) locals.push(...localNames(fn, row, col));
  const own = fileNames(tree.rootNode);
  const pkg = packageOf(tree.rootNode);
  const isTest = file.endsWith('_test.go');
  const folder = dirname(file);
  const siblings = (await readdir(join(root, folder)).catch(() => [] as string[])).filter(
    (f) => f.endsWith('.go') && join(folder, f) !== join(file) && (isTest || !f.endsWith('_test.go')),
  );
  const packageNames = [...own.declared, ...own.imports];
  for (const f of siblings) {
    const other = await read(join(folder, f));
    if (other === undefined) continue;
    const otherRoot = goCache.parseText(other).tree.rootNode;
    if (packageOf(otherRoot) === pkg) packageNames.push(...fileNames(otherRoot).declared);
  }
  return [locals, packageNames, GO_PREDECLARED];
}

/**
 * A line with the identifier `name` at 1-based byte `column` replaced by `to`; undefined when the
 * line does not hold `name` there as a whole identifier.
 */
export function renameAt(
  text: string,
  line: number,
  column: number,
  name: string,
  to: string,
): string | undefined {
  const lines = text.split('\n');
  const current = lines[line - 1];
  if (current === undefined) return undefined;
  const bytes = Buffer.from(current, 'utf8');
  const at = column - 1;
  const end = at + Buffer.byteLength(name);
  const isIdent = (b: number | undefined): boolean =>
    b !== undefined &&
    (b === 0x5f || (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) || b >= 0x80);
  if (bytes.subarray(at, end).toString('utf8') !== name || isIdent(bytes[at - 1]) || isIdent(bytes[end]))
    return undefined;
  lines[line - 1] = `${bytes.subarray(0, at).toString('utf8')}${to}${bytes.subarray(end).toString('utf8')}`;
  return lines.join('\n');
}
