import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, collect, type Binding, type Constants, type Dialect } from '@suture/core/analysis';

const ids = (n: Node | null | undefined): Node[] =>
  n
    ? collect(
        n,
        (x) => /^(?:identifier|shorthand_property_identifier_pattern)$/.test(x.type),
        (x) => x.type === 'member_expression' || x.type === 'subscript_expression',
      )
    : [];

/** Every name a JS/TS scope binds, with the value when it is a declarator `name = value`. */
export function jsBindings(scope: Node): Binding[] {
  const out: Binding[] = [];
  const none = (at: Node) => (id: Node) => out.push({ name: id.text, at });
  for (const n of collect(scope, (x) =>
    /^(?:variable_declarator|assignment_expression|augmented_assignment_expression|update_expression|function_declaration|generator_function_declaration|class_declaration|formal_parameters|for_in_statement|catch_clause|import_statement|arrow_function)$/.test(
      x.type,
    ),
  )) {
    if (n.type === 'variable_declarator') {
      const name = n.childForFieldName('name');
      const value = n.childForFieldName('value');
      if (name?.type === 'identifier') out.push({ name: name.text, at: n, ...(value ? { value } : {}) });
      else ids(name).forEach(none(n));
    } else if (n.type === 'assignment_expression' && n.childForFieldName('left')?.type === 'identifier')
      // `f = () => 5`: a parameter or variable given a value
      out.push({ name: n.childForFieldName('left')!.text, at: n, value: n.childForFieldName('right')! });
    else if (n.type === 'assignment_expression' || n.type === 'augmented_assignment_expression')
      ids(n.childForFieldName('left')).forEach(none(n));
    else if (n.type === 'update_expression') ids(n.childForFieldName('argument')).forEach(none(n));
    else if (n.type === 'for_in_statement') ids(n.childForFieldName('left')).forEach(none(n));
    else if (n.type === 'catch_clause') ids(n.childForFieldName('parameter')).forEach(none(n));
    else if (n.type === 'arrow_function') {
      const p = n.childForFieldName('parameter');
      if (p) ids(p).forEach(none(n));
    } else if (/declaration$/.test(n.type)) ids(n.childForFieldName('name')).forEach(none(n));
    else ids(n).forEach(none(n));
  }
  return out;
}

/** The rows of an array literal (a name resolved through the file's constants). */
export function jsRows(expr: Node | null | undefined, k: Constants, d: Dialect): string[] | undefined {
  const n = expr?.type === 'identifier' ? k.get(expr.text) : expr;
  if (n?.type === 'array')
    return n.namedChildren.filter((c) => !d.comments.has(c.type)).map((c) => cleanText(c, d));
  // a tagged table: `test.each\`a | b\n${1} | ${2}\``, one row a line after the header
  if (n?.type === 'template_string')
    return n.text
      .slice(1, -1)
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(1);
  return undefined;
}

const within = (n: Node, outer: Node): boolean =>
  n.startIndex >= outer.startIndex && n.endIndex <= outer.endIndex;

/**
 * The rows of data a test's assertions run over: its `.each` table (a test's or an enclosing
 * describe's) and the arrays that `for...of` loops and `.forEach` calls holding an assertion walk.
 */
export function jsCases(
  tables: readonly Node[],
  body: Node,
  checks: readonly Node[],
  k: Constants,
  d: Dialect,
): string[] | undefined {
  const rows: string[] = [];
  let any = false;
  const add = (over: Node): void => {
    any = true;
    rows.push(...(jsRows(over, k, d) ?? [cleanText(over, d)]));
  };
  tables.forEach(add);
  for (const n of collect(body, (x) => x.type === 'for_in_statement' || x.type === 'call_expression')) {
    if (n.type === 'for_in_statement') {
      const inner = n.childForFieldName('body')!;
      if (checks.some((c) => within(c, inner)) && n.children.some((c) => c.type === 'of'))
        add(n.childForFieldName('right')!);
      continue;
    }
    const fn = n.childForFieldName('function');
    const [cb] = n.childForFieldName('arguments')?.namedChildren ?? [];
    if (fn?.type === 'member_expression' && /^(?:forEach|map)$/.test(fn.childForFieldName('property')!.text))
      if (cb && checks.some((c) => within(c, cb))) add(fn.childForFieldName('object')!);
  }
  return any ? rows : undefined;
}
