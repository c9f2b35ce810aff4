import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, posix } from 'node:path';
import { ParseCache, type Grammar, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';

const grammar = createRequire(import.meta.url)('tree-sitter-python') as Grammar;

/** One parse cache per analyzer: files the scope walk reaches are parsed once per content. */
export function createPythonCache(): ParseCache {
  return new ParseCache(grammar);
}

export interface ImportBinding {
  module: string;
  /** Imported name (`from m import name`); undefined for `import m`. */
  name?: string;
  /** Leading dots of a relative import. */
  level: number;
}

function unwrap(node: SyntaxNode): SyntaxNode {
  return node.type === 'decorated_definition' ? (node.childForFieldName('definition') ?? node) : node;
}

/** Top-level functions and classes, and methods as `Class.method`. */
export function definitions(tree: SyntaxTree): Map<string, SyntaxNode> {
  const defs = new Map<string, SyntaxNode>();
  for (const child of tree.rootNode.namedChildren) {
    const node = unwrap(child);
    const name = node.childForFieldName('name')?.text;
    if (!name || (node.type !== 'function_definition' && node.type !== 'class_definition')) continue;
    defs.set(name, node);
    if (node.type === 'class_definition') {
      for (const member of node.childForFieldName('body')?.namedChildren ?? []) {
        const m = unwrap(member);
        const mname = m.childForFieldName('name')?.text;
        if (m.type === 'function_definition' && mname) defs.set(`${name}.${mname}`, m);
      }
    }
  }
  return defs;
}

/** Names bound by import statements anywhere in the module. */
export function imports(tree: SyntaxTree): Map<string, ImportBinding> {
  const out = new Map<string, ImportBinding>();
  for (const node of tree.rootNode.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (node.type === 'import_statement') {
      for (const n of node.childrenForFieldName('name')) {
        if (n.type === 'aliased_import')
          out.set(n.childForFieldName('alias')!.text, {
            module: n.childForFieldName('name')!.text,
            level: 0,
          });
        else out.set(n.text.split('.')[0]!, { module: n.text.split('.')[0]!, level: 0 });
      }
      continue;
    }
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode) continue;
    let module = moduleNode.text;
    let level = 0;
    if (moduleNode.type === 'relative_import') {
      level = /^\.+/.exec(module)?.[0].length ?? 0;
      module = module.slice(level);
    }
    for (const n of node.childrenForFieldName('name')) {
      if (n.type === 'aliased_import')
        out.set(n.childForFieldName('alias')!.text, {
          module,
          name: n.childForFieldName('name')!.text,
          level,
        });
      else out.set(n.text, { module, name: n.text, level });
    }
  }
  return out;
}

/** Callee expressions inside a node: `f` or `obj.attr` (object text kept). */
export function calls(node: SyntaxNode): Array<{ name: string; object?: string }> {
  const out: Array<{ name: string; object?: string }> = [];
  const seen = new Set<string>();
  for (const call of node.descendantsOfType('call')) {
    const fn = call.childForFieldName('function');
    if (!fn) continue;
    const entry =
      fn.type === 'identifier'
        ? { name: fn.text }
        : fn.type === 'attribute'
          ? {
              name: fn.childForFieldName('attribute')?.text ?? '',
              object: fn.childForFieldName('object')?.text,
            }
          : undefined;
    if (!entry?.name) continue;
    const key = `${entry.object ?? ''}.${entry.name}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(entry);
    }
  }
  // Names used without a call (a function passed as a value, a class referenced) matter too.
  for (const id of node.descendantsOfType('identifier')) {
    if (
      !seen.has(`.${id.text}`) &&
      id.parent?.type !== 'attribute' &&
      id.parent?.type !== 'keyword_argument'
    ) {
      seen.add(`.${id.text}`);
      out.push({ name: id.text });
    }
  }
  return out;
}

/** Qualified name (`func` or `Class.method`) of the function enclosing a 1-based line. */
export function enclosingSymbol(tree: SyntaxTree, line: number): string | undefined {
  // the first non-blank character of the line lies inside the statement, hence inside its function
  const text = tree.rootNode.text.split('\n')[line - 1] ?? '';
  let node: SyntaxNode | null = tree.rootNode.namedDescendantForPosition({
    row: line - 1,
    column: text.length - text.trimStart().length,
  });
  const names: string[] = [];
  while (node) {
    if (node.type === 'function_definition' || node.type === 'class_definition') {
      const name = node.childForFieldName('name')?.text;
      if (name) names.unshift(name);
    }
    node = node.parent;
  }
  return names.length > 0 ? names.slice(-2).join('.') : undefined;
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

/** Resolves a module to a project-relative file (module.py or package/__init__.py), if it is the project's. */
export async function resolveModule(
  root: string,
  fromFile: string,
  binding: ImportBinding,
): Promise<string | undefined> {
  const parts = binding.module ? binding.module.split('.') : [];
  const bases: string[] = [];
  if (binding.level > 0) {
    let base = posix.dirname(fromFile);
    for (let i = 1; i < binding.level; i++) base = posix.dirname(base);
    bases.push(base === '.' ? '' : base);
  } else {
    bases.push('', 'src', posix.dirname(fromFile) === '.' ? '' : posix.dirname(fromFile));
  }
  for (const base of bases) {
    const stem = posix.join(base, ...parts);
    // `from pkg import mod` may name a submodule
    if (binding.name) {
      const sub = posix.join(stem, binding.name);
      if (await exists(join(root, `${sub}.py`))) return `${sub}.py`;
    }
    if (parts.length > 0 && (await exists(join(root, `${stem}.py`)))) return `${stem}.py`;
    if (await exists(join(root, stem, '__init__.py'))) return posix.join(stem, '__init__.py');
  }
  return undefined;
}

export function parentDirs(file: string): string[] {
  const dirs: string[] = [];
  let dir = dirname(file);
  for (;;) {
    dirs.push(dir === '.' ? '' : dir);
    if (dir === '.' || dir === '/' || dir === '') break;
    dir = dirname(dir);
  }
  return dirs;
}
