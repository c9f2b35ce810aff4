import type { SyntaxNode, SyntaxTree } from '@suture/core/analysis';

/** A name used in a function: a call `f()`, `obj.m()`, or a reference passed as a value. */
export interface PyUse {
  name: string;
  /** The object of an attribute call, as written: `self`, `mod`, `a.b`. */
  object?: string;
  /** 1-based first lines of the statements it is used in (at most 20). */
  lines: number[];
}

export interface PyDef {
  /** `f`, `Class` or `Class.method`; nested functions belong to the definition they are in. */
  name: string;
  kind: 'function' | 'class';
  /** 1-based first line, decorators included, and last line. */
  line: number;
  endLine: number;
  uses: PyUse[];
  params: string[];
  /** Decorator expressions, as written without their arguments: `functools.wraps`, `cache`. */
  decorators: string[];
  /** Base classes of a class, as written. */
  bases: string[];
  /** Local variables bound to a call's result: `slt = SortedList()` gives `slt` -> `SortedList`. */
  types: Array<[string, string]>;
  /** Its docstring when it holds doctest examples (`>>>`). */
  doctest?: string;
}

export interface PyImport {
  module: string;
  /** Imported name (`from m import name`); undefined for `import m`. */
  name?: string;
  /** Leading dots of a relative import. */
  level: number;
}

/** What the analyzer keeps of a Python module: plain data, cached by content across runs. */
export interface PyModule {
  defs: PyDef[];
  /** Local name -> what it imports. */
  imports: Array<[string, PyImport]>;
  /** `from m import *`. */
  stars: PyImport[];
  /** `__all__`, when the module lists it literally. */
  all?: string[];
  /** `name = other` at module level, `Class.name = Class.other` in a class body. */
  aliases: Array<[string, string]>;
  /** Names used by module-level statements. */
  uses: PyUse[];
  /** The module's own docstring when it holds doctest examples. */
  doctest?: string;
}

const MAX_LINES = 20;
const STATEMENT_PARENTS = new Set(['block', 'module']);

function unwrap(node: SyntaxNode): SyntaxNode {
  return node.type === 'decorated_definition' ? (node.childForFieldName('definition') ?? node) : node;
}

function decoratorsOf(node: SyntaxNode): string[] {
  if (node.type !== 'decorated_definition') return [];
  return node.namedChildren
    .filter((c) => c.type === 'decorator')
    .map((d) => {
      const expr = d.namedChildren[0];
      const callee = expr?.type === 'call' ? expr.childForFieldName('function') : expr;
      return callee?.text ?? '';
    })
    .filter(Boolean);
}

function docstringOf(body: SyntaxNode | null): string | undefined {
  const first = body?.namedChildren[0];
  const str = first?.type === 'expression_statement' ? first.namedChildren[0] : undefined;
  if (str?.type !== 'string' || !str.text.includes('>>>')) return undefined;
  return str.text;
}

function paramsOf(fn: SyntaxNode): string[] {
  return (fn.childForFieldName('parameters')?.namedChildren ?? [])
    .map((p) =>
      p.type === 'identifier'
        ? p.text
        : (p.childForFieldName('name')?.text ?? p.namedChildren[0]?.text ?? ''),
    )
    .filter((p) => p && p !== 'self' && p !== 'cls');
}

interface Span {
  def: PyDef;
  start: number;
  end: number;
}

/** Module-level and class-level definitions, in source order, with their row spans (0-based). */
function collectDefs(tree: SyntaxTree, aliases: Array<[string, string]>): Span[] {
  const spans: Span[] = [];
  const make = (outer: SyntaxNode, node: SyntaxNode, name: string): PyDef => {
    const body = node.childForFieldName('body');
    const doc = docstringOf(body);
    return {
      name,
      kind: node.type === 'class_definition' ? 'class' : 'function',
      line: outer.startPosition.row + 1,
      endLine: outer.endPosition.row + 1,
      uses: [],
      params: node.type === 'function_definition' ? paramsOf(node) : [],
      decorators: decoratorsOf(outer),
      bases:
        node.type === 'class_definition'
          ? (node.childForFieldName('superclasses')?.namedChildren ?? [])
              .filter((b) => b.type === 'identifier' || b.type === 'attribute')
              .map((b) => b.text)
          : [],
      types: [],
      ...(doc ? { doctest: doc } : {}),
    };
  };
  for (const child of tree.rootNode.namedChildren) {
    const node = unwrap(child);
    const name = node.childForFieldName('name')?.text;
    if (!name || (node.type !== 'function_definition' && node.type !== 'class_definition')) continue;
    spans.push({ def: make(child, node, name), start: child.startPosition.row, end: child.endPosition.row });
    if (node.type !== 'class_definition') continue;
    for (const member of node.childForFieldName('body')?.namedChildren ?? []) {
      const m = unwrap(member);
      const mname = m.childForFieldName('name')?.text;
      if (m.type === 'function_definition' && mname)
        spans.push({
          def: make(member, m, `${name}.${mname}`),
          start: member.startPosition.row,
          end: member.endPosition.row,
        });
      else if (member.type === 'expression_statement') {
        // `bisect = bisect_right` in a class body: the method under another name
        const assign = member.namedChildren[0];
        const left = assign?.childForFieldName('left');
        const right = assign?.childForFieldName('right');
        if (assign?.type === 'assignment' && left?.type === 'identifier' && right?.type === 'identifier')
          aliases.push([`${name}.${left.text}`, `${name}.${right.text}`]);
      }
    }
  }
  return spans;
}

/** For each 0-based row, the innermost definition holding it (a method before its class). */
function rowOwners(spans: readonly Span[], rows: number): Array<PyDef | null> {
  const owners: Array<PyDef | null> = new Array<PyDef | null>(rows + 1).fill(null);
  // source order puts a class before its methods, so a method's rows overwrite its class's
  for (const s of spans) for (let r = s.start; r <= s.end && r <= rows; r++) owners[r] = s.def;
  return owners;
}

function statementLine(node: SyntaxNode): number {
  let current: SyntaxNode | null = node;
  for (let i = 0; current && i < 40; i++) {
    if (current.parent && STATEMENT_PARENTS.has(current.parent.type)) return current.startPosition.row + 1;
    current = current.parent;
  }
  return node.startPosition.row + 1;
}

function addUse(uses: Map<string, PyUse>, name: string, object: string | undefined, line: number): void {
  const key = `${object ?? ''}.${name}`;
  const use = uses.get(key);
  if (!use) uses.set(key, { name, ...(object !== undefined ? { object } : {}), lines: [line] });
  else if (!use.lines.includes(line) && use.lines.length < MAX_LINES) use.lines.push(line);
}

const NOT_A_USE = new Set([
  'attribute',
  'keyword_argument',
  'parameters',
  'default_parameter',
  'typed_parameter',
]);

/** Reads a parsed module into a `PyModule`, in time linear in its size. */
export function summarizePython(tree: SyntaxTree): PyModule {
  const aliases: Array<[string, string]> = [];
  const spans = collectDefs(tree, aliases);
  const usesOf = new Map<PyDef | null, Map<string, PyUse>>();
  const usesFor = (def: PyDef | null): Map<string, PyUse> => {
    let m = usesOf.get(def);
    if (!m) usesOf.set(def, (m = new Map()));
    return m;
  };
  const owners = rowOwners(spans, tree.rootNode.endPosition.row);
  const ownerOf = (node: SyntaxNode): PyDef | null => owners[node.startPosition.row] ?? null;
  for (const call of tree.rootNode.descendantsOfType('call')) {
    const fn = call.childForFieldName('function');
    const line = statementLine(call);
    if (fn?.type === 'identifier') addUse(usesFor(ownerOf(call)), fn.text, undefined, line);
    else if (fn?.type === 'attribute') {
      const attr = fn.childForFieldName('attribute')?.text;
      const object = fn.childForFieldName('object')?.text;
      if (attr && object) addUse(usesFor(ownerOf(call)), attr, object, line);
    }
  }
  // names used without a call (a function passed as a value, a class referenced) matter too
  for (const id of tree.rootNode.descendantsOfType('identifier')) {
    if (NOT_A_USE.has(id.parent?.type ?? '')) continue;
    if (id.parent?.type === 'call' && id.parent.childForFieldName('function')?.startIndex === id.startIndex)
      continue;
    addUse(usesFor(ownerOf(id)), id.text, undefined, statementLine(id));
  }
  for (const assign of tree.rootNode.descendantsOfType('assignment')) {
    const left = assign.childForFieldName('left');
    const right = assign.childForFieldName('right');
    if (left?.type !== 'identifier' || right?.type !== 'call') continue;
    const callee = right.childForFieldName('function');
    const owner = ownerOf(assign);
    if (owner && callee && (callee.type === 'identifier' || callee.type === 'attribute'))
      owner.types.push([left.text, callee.text]);
  }
  for (const s of spans) s.def.uses = [...(usesOf.get(s.def)?.values() ?? [])];
  const module: PyModule = {
    defs: spans.map((s) => s.def),
    imports: [],
    stars: [],
    aliases,
    uses: [...(usesOf.get(null)?.values() ?? [])],
  };
  const doc = docstringOf(tree.rootNode);
  if (doc) module.doctest = doc;
  readImports(tree, module);
  readModuleAssignments(tree, module);
  return module;
}

function readImports(tree: SyntaxTree, module: PyModule): void {
  for (const node of tree.rootNode.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (node.type === 'import_statement') {
      for (const n of node.childrenForFieldName('name')) {
        if (n.type === 'aliased_import') {
          const target = n.childForFieldName('name')!.text;
          module.imports.push([n.childForFieldName('alias')!.text, { module: target, level: 0 }]);
        } else {
          // `import a.b` binds `a`, and `a.b.f()` reads through it
          module.imports.push([n.text.split('.')[0]!, { module: n.text.split('.')[0]!, level: 0 }]);
          if (n.text.includes('.')) module.imports.push([n.text, { module: n.text, level: 0 }]);
        }
      }
      continue;
    }
    const moduleNode = node.childForFieldName('module_name');
    if (!moduleNode) continue;
    let name = moduleNode.text;
    let level = 0;
    if (moduleNode.type === 'relative_import') {
      level = /^\.+/.exec(name)?.[0].length ?? 0;
      name = name.slice(level);
    }
    if (node.namedChildren.some((c) => c.type === 'wildcard_import')) {
      module.stars.push({ module: name, level });
      continue;
    }
    for (const n of node.childrenForFieldName('name')) {
      if (n.type === 'aliased_import')
        module.imports.push([
          n.childForFieldName('alias')!.text,
          { module: name, name: n.childForFieldName('name')!.text, level },
        ]);
      else module.imports.push([n.text, { module: name, name: n.text, level }]);
    }
  }
}

/** `__all__ = [...]` and `name = other` (or `name = mod.attr`) at module level. */
function readModuleAssignments(tree: SyntaxTree, module: PyModule): void {
  for (const stmt of tree.rootNode.namedChildren) {
    const assign = stmt.type === 'expression_statement' ? stmt.namedChildren[0] : undefined;
    if (assign?.type !== 'assignment' && assign?.type !== 'augmented_assignment') continue;
    const left = assign.childForFieldName('left');
    const right = assign.childForFieldName('right');
    if (left?.type !== 'identifier' || !right) continue;
    if (left.text === '__all__' && (right.type === 'list' || right.type === 'tuple')) {
      const names = right.namedChildren
        .filter((c) => c.type === 'string')
        .map((c) => c.text.replace(/^[rbuRBU]*['"]+|['"]+$/g, ''));
      module.all = [...(module.all ?? []), ...names];
    } else if (assign.type === 'assignment' && (right.type === 'identifier' || right.type === 'attribute'))
      module.aliases.push([left.text, right.text]);
  }
}

/** The source of the `>>>` and `...` lines of a docstring or a document, as a module. */
export function doctestSource(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const m = /^\s*(>>>|\.\.\.) ?(.*)$/.exec(line);
    // blank lines keep line numbers aligned with the document
    out.push(m ? m[2]! : '');
  }
  return out.join('\n');
}
