import { access, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, posix, relative } from 'node:path';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { testTitlePath } from './test-title.js';

const require = createRequire(import.meta.url);
const javascript = require('tree-sitter-javascript') as Grammar;
const typescript = require('tree-sitter-typescript') as { typescript: Grammar; tsx: Grammar };

/** One cache per grammar: JavaScript (and JSX), TypeScript, TSX. */
export class ScriptCache {
  private readonly js = new ParseCache(javascript);
  private readonly ts = new ParseCache(typescript.typescript);
  private readonly tsx = new ParseCache(typescript.tsx);

  forFile(file: string): ParseCache {
    if (/\.tsx$/.test(file)) return this.tsx;
    if (/\.[cm]?ts$/.test(file)) return this.ts;
    return this.js;
  }

  parseFile(root: string, file: string): ReturnType<ParseCache['parseFile']> {
    return this.forFile(file).parseFile(join(root, file));
  }
}

export interface Binding {
  source: string;
  /** Imported name; undefined for a default/namespace/whole-module binding. */
  name?: string;
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);

/** Top-level functions, function-valued consts, classes and their methods (`Class.method`). */
export function definitions(tree: SyntaxTree): Map<string, SyntaxNode> {
  const defs = new Map<string, SyntaxNode>();
  const visit = (node: SyntaxNode): void => {
    const target =
      node.type === 'export_statement'
        ? (node.childForFieldName('declaration') ?? node.namedChildren[0])
        : node;
    if (!target) return;
    if (target.type === 'function_declaration' || target.type === 'generator_function_declaration') {
      const name = target.childForFieldName('name')?.text;
      if (name) defs.set(name, target);
    } else if (target.type === 'lexical_declaration' || target.type === 'variable_declaration') {
      for (const d of target.namedChildren.filter((c) => c.type === 'variable_declarator')) {
        const value = d.childForFieldName('value');
        const name = d.childForFieldName('name');
        if (name?.type === 'identifier' && value && FUNCTION_VALUES.has(value.type))
          defs.set(name.text, value);
      }
    } else if (target.type === 'class_declaration') {
      const cname = target.childForFieldName('name')?.text;
      if (!cname) return;
      defs.set(cname, target);
      for (const m of target.childForFieldName('body')?.namedChildren ?? []) {
        const mname = m.childForFieldName('name')?.text;
        if (m.type === 'method_definition' && mname) defs.set(`${cname}.${mname}`, m);
      }
    }
  };
  for (const child of tree.rootNode.namedChildren) visit(child);
  return defs;
}

function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || (node.type !== 'string' && node.type !== 'template_string')) return undefined;
  return node.text.slice(1, -1);
}

/** Names bound by `import` statements and `require()` calls. */
export function bindings(tree: SyntaxTree): Map<string, Binding> {
  const out = new Map<string, Binding>();
  for (const imp of tree.rootNode.descendantsOfType('import_statement')) {
    const source = stringValue(imp.childForFieldName('source'));
    if (!source) continue;
    for (const id of imp.descendantsOfType('import_specifier')) {
      const name = id.childForFieldName('name')?.text;
      const alias = id.childForFieldName('alias')?.text ?? name;
      if (name && alias) out.set(alias, { source, name });
    }
    for (const clause of imp.descendantsOfType('import_clause')) {
      const def = clause.namedChildren.find((c) => c.type === 'identifier');
      if (def) out.set(def.text, { source });
    }
    for (const ns of imp.descendantsOfType('namespace_import')) {
      const id = ns.namedChildren.find((c) => c.type === 'identifier');
      if (id) out.set(id.text, { source });
    }
  }
  for (const d of tree.rootNode.descendantsOfType('variable_declarator')) {
    const value = d.childForFieldName('value');
    if (value?.type !== 'call_expression' || value.childForFieldName('function')?.text !== 'require')
      continue;
    const source = stringValue(value.childForFieldName('arguments')?.namedChildren[0]);
    const name = d.childForFieldName('name');
    if (!source || !name) continue;
    if (name.type === 'identifier') out.set(name.text, { source });
    for (const p of name.descendantsOfType('shorthand_property_identifier_pattern'))
      out.set(p.text, { source, name: p.text });
    for (const p of name.descendantsOfType('pair_pattern')) {
      const key = p.childForFieldName('key')?.text;
      const local = p.childForFieldName('value')?.text;
      if (key && local) out.set(local, { source, name: key });
    }
  }
  return out;
}

/** Callees inside a node: `f()` or `obj.m()`, plus identifiers passed around. */
export function calls(node: SyntaxNode): Array<{ name: string; object?: string }> {
  const out: Array<{ name: string; object?: string }> = [];
  const seen = new Set<string>();
  const add = (e: { name: string; object?: string }): void => {
    const key = `${e.object ?? ''}.${e.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(e);
    }
  };
  for (const call of node.descendantsOfType(['call_expression', 'new_expression'])) {
    const fn = call.childForFieldName('function') ?? call.childForFieldName('constructor');
    if (fn?.type === 'identifier') add({ name: fn.text });
    else if (fn?.type === 'member_expression') {
      const prop = fn.childForFieldName('property')?.text;
      const obj = fn.childForFieldName('object');
      if (prop)
        add({
          name: prop,
          ...(obj?.type === 'identifier' || obj?.type === 'this' ? { object: obj.text } : {}),
        });
    }
  }
  for (const id of node.descendantsOfType('identifier'))
    if (id.parent?.type !== 'member_expression') add({ name: id.text });
  return out;
}

/** The callback of `test('title', fn)` / `it(...)` / `test.each(...)('title', fn)` whose title matches. */
export function testCallback(tree: SyntaxTree, title: string): SyntaxNode | undefined {
  let fallback: SyntaxNode | undefined;
  for (const call of tree.rootNode.descendantsOfType('call_expression')) {
    const fn = call.childForFieldName('function');
    const head = fn?.type === 'call_expression' ? fn.childForFieldName('function') : fn;
    const base = head?.type === 'member_expression' ? head.childForFieldName('object')?.text : head?.text;
    if (base !== 'test' && base !== 'it') continue;
    const args = call.childForFieldName('arguments')?.namedChildren ?? [];
    const name = stringValue(args[0]);
    const cb = args[args.length - 1];
    if (!cb || !FUNCTION_VALUES.has(cb.type)) continue;
    if (name === title) return cb;
    // test.each titles are templates (`%i + %i`): match them loosely
    if (
      name &&
      fn?.type === 'call_expression' &&
      new RegExp(
        `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/%[sdifjop#]|\\\$\w+/g, '.*')}$`,
      ).test(title)
    )
      fallback = cb;
  }
  return fallback;
}

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

const EXTENSIONS = [
  '',
  '.js',
  '.ts',
  '.tsx',
  '.jsx',
  '.mjs',
  '.cjs',
  '.mts',
  '.cts',
  '/index.js',
  '/index.ts',
  '/index.tsx',
  '/index.mjs',
];

async function exists(p: string): Promise<boolean> {
  return access(p).then(
    () => true,
    () => false,
  );
}

/** Resolves an import source to a project-relative file: relative paths, and workspace packages' exports. */
export async function resolveSource(
  root: string,
  fromFile: string,
  source: string,
): Promise<string | undefined> {
  if (source.startsWith('.')) {
    const base = posix.join(posix.dirname(fromFile), source);
    for (const ext of EXTENSIONS) {
      const candidate = `${base}${ext}`;
      if (
        !candidate.startsWith('..') &&
        (await exists(join(root, candidate))) &&
        /\.[cm]?[jt]sx?$/.test(candidate)
      )
        return candidate;
    }
    // ESM TypeScript imports name the emitted .js file: look for the .ts source
    const ts = base.replace(/\.js$/, '.ts');
    if (ts !== base && (await exists(join(root, ts)))) return ts;
    return undefined;
  }
  if (source.startsWith('node:')) return undefined;
  const [scope, name] = source.split('/');
  const pkgName = scope!.startsWith('@') ? `${scope}/${name}` : scope!;
  for (let dir = join(root, posix.dirname(fromFile)); ; dir = dirname(dir)) {
    const pkgDir = join(dir, 'node_modules', pkgName);
    const text = await readFile(join(pkgDir, 'package.json'), 'utf8').catch(() => undefined);
    if (text) {
      const pkg = JSON.parse(text) as { exports?: unknown; main?: string; module?: string };
      const entry = pickEntry(pkg.exports) ?? pkg.module ?? pkg.main ?? 'index.js';
      const { realpath } = await import('node:fs/promises');
      const real = await realpath(join(pkgDir, entry)).catch(() => undefined);
      const rel = real ? relative(root, real) : undefined;
      // only workspace packages inside the project are followed, never third-party code
      return rel && !rel.startsWith('..') && !rel.includes('node_modules')
        ? rel.split('\\').join('/')
        : undefined;
    }
    if (dirname(dir) === dir || !dir.startsWith(root)) return undefined;
  }
}

function pickEntry(exp: unknown): string | undefined {
  if (typeof exp === 'string') return exp;
  if (!exp || typeof exp !== 'object') return undefined;
  const o = exp as Record<string, unknown>;
  if ('.' in o) return pickEntry(o['.']);
  for (const c of ['source', 'import', 'require', 'node', 'default']) {
    const hit = pickEntry(o[c]);
    if (hit) return hit;
  }
  return undefined;
}
