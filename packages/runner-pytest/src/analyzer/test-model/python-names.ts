import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, collect, type Binding, type Constants, type Dialect } from '@suture/core/analysis';

const ids = (n: Node | null | undefined): Node[] =>
  n
    ? collect(
        n,
        (x) => x.type === 'identifier',
        (x) => x.type === 'attribute' || x.type === 'subscript',
      )
    : [];

/** Every name a Python scope binds, with the value when it is a plain `name = value`. */
export function pythonBindings(scope: Node): Binding[] {
  const out: Binding[] = [];
  const none = (at: Node) => (id: Node) => out.push({ name: id.text, at });
  for (const n of collect(scope, (x) =>
    /^(?:assignment|augmented_assignment|for_statement|for_in_clause|as_pattern|named_expression|function_definition|class_definition|parameters|lambda_parameters|global_statement|nonlocal_statement|import_statement|import_from_statement|delete_statement)$/.test(
      x.type,
    ),
  )) {
    const left = n.childForFieldName('left');
    if (n.type === 'assignment') {
      const right = n.childForFieldName('right');
      if (left?.type === 'identifier')
        out.push({ name: left.text, at: n, ...(right ? { value: right } : {}) });
      else ids(left).forEach(none(n));
      // `a = b = 1`: the inner assignment is its own node, visited by the walk
    } else if (n.type === 'augmented_assignment' || n.type === 'for_statement' || n.type === 'for_in_clause')
      ids(left).forEach(none(n));
    else if (n.type === 'as_pattern') ids(n.childForFieldName('alias')).forEach(none(n));
    else if (n.type === 'named_expression') ids(n.childForFieldName('name')).forEach(none(n));
    else if (n.type === 'function_definition' || n.type === 'class_definition')
      ids(n.childForFieldName('name')).forEach(none(n));
    else if (n.type === 'import_statement' || n.type === 'import_from_statement')
      for (const name of n.childrenForFieldName('name')) {
        const alias =
          name.type === 'aliased_import' ? name.childForFieldName('alias') : name.namedChildren[0];
        if (alias) out.push({ name: alias.text, at: n });
      }
    else ids(n).forEach(none(n));
  }
  return out;
}

/** A read of a variable: an identifier that is not an attribute's name or a keyword argument's. */
export function pythonVariable(n: Node): boolean {
  return (
    n.type === 'identifier' &&
    n.field !== 'attribute' &&
    !(n.parent?.type === 'keyword_argument' && n.field === 'name') &&
    !/^(?:parameters|lambda_parameters|default_parameter|typed_parameter)$/.test(n.parent?.type ?? '')
  );
}

/** The rows of a literal list, tuple, set or dict (a name resolved through the file's constants). */
export function rowsOf(expr: Node | null | undefined, k: Constants, d: Dialect): string[] | undefined {
  let n = expr;
  if (n?.type === 'identifier') n = k.get(n.text);
  // `CASES.items()`: the pairs of a dict constant
  if (n?.type === 'call' && /\.(?:items|keys|values)$/.test(n.childForFieldName('function')?.text ?? '')) {
    const object = n.childForFieldName('function')!.childForFieldName('object');
    return rowsOf(object, k, d);
  }
  if (!n || !/^(?:list|tuple|set|dictionary)$/.test(n.type)) return undefined;
  return n.namedChildren.filter((c) => !d.comments.has(c.type)).map((c) => cleanText(c, d));
}

/** The argument values a `parametrize` mark gives its test: its second positional argument or `argvalues=`. */
export function parametrizeRows(mark: Node, k: Constants, d: Dialect): string[] | undefined {
  const call = mark.namedChildren.find((c) => c.type === 'call');
  if (!call || !/(?:^|\.)parametrize$/.test(call.childForFieldName('function')?.text ?? '')) return undefined;
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  const keyword = args.find(
    (a) => a.type === 'keyword_argument' && a.childForFieldName('name')?.text === 'argvalues',
  );
  const values = keyword?.childForFieldName('value') ?? args.filter((a) => a.type !== 'keyword_argument')[1];
  if (!values) return undefined;
  return rowsOf(values, k, d) ?? [cleanText(values, d)];
}

/**
 * The rows of data a test's assertions run over: its `parametrize` marks (and its class's), and
 * the literal or constant collections that loops holding an assertion iterate. Undefined when
 * there is none; a loop over something else (a call, a comprehension) is listed as its text.
 */
export function pythonCases(
  marks: readonly Node[],
  body: Node,
  checks: readonly Node[],
  k: Constants,
  d: Dialect,
): string[] | undefined {
  const rows: string[] = [];
  let any = false;
  for (const m of marks) {
    const r = parametrizeRows(m, k, d);
    if (r) {
      any = true;
      rows.push(...r);
    }
  }
  for (const loop of collect(body, (n) => n.type === 'for_statement')) {
    const inner = loop.childForFieldName('body')!;
    if (!checks.some((c) => c.startIndex >= inner.startIndex && c.endIndex <= inner.endIndex)) continue;
    const over = loop.childForFieldName('right')!;
    const r = rowsOf(over, k, d);
    any = true;
    rows.push(...(r ?? [cleanText(over, d)]));
  }
  return any ? rows : undefined;
}

/** The test file's own namespace: `sys.modules[__name__]`, `globals()`, `vars()` (through an alias too). */
export function isOwnModule(object: Node, aliases: ReadonlyMap<string, Node>): boolean {
  const text = aliases.get(object.text)?.text ?? object.text;
  return /^(?:sys\.modules\[\s*__name__\s*\]|globals\(\s*\)|vars\(\s*\)|sys\.modules\.get\(\s*__name__\s*\))$/.test(
    text.replace(/\s+/g, ''),
  );
}

/** The note for a name computed on the file's own namespace: every name the file imports is in reach. */
export function ownModule(imports: Readonly<Record<string, string>>): string {
  const held = Object.keys(imports);
  return `this module${held.length ? `, which holds ${held.join(', ')}` : ''}`;
}

/**
 * `setattr(module, "a" + "dd", fake)` replaces whatever the computed name spells: when its object is
 * (an alias of) an imported module or name, the note says which names of the file come from it,
 * so a replacement of the code under test is seen whatever the string.
 */
export function setattrTarget(
  call: Node,
  imports: Readonly<Record<string, string>>,
  aliases: ReadonlyMap<string, Node>,
): string | undefined {
  const [object] = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (!object) return undefined;
  if (isOwnModule(object, aliases)) return ownModule(imports);
  let head = object.text.split('.')[0]!;
  for (let i = 0; i < 4 && !(head in imports) && aliases.get(head); i++)
    head = aliases.get(head)!.text.split('.')[0]!;
  const from = imports[head];
  if (from === undefined) return undefined;
  const module = from.split(':')[0]!;
  const held = Object.entries(imports)
    .filter(([, source]) => source.startsWith(`${module}:`) || source.startsWith(`${from}:`))
    .map(([name]) => name);
  return `${from}${held.length ? `, which holds ${held.join(', ')}` : ''}`;
}
