import { collect, type Binding, type PlainNode as Node } from '@suture/core/analysis';

const ids = (n: Node | null | undefined): Node[] => (n ? collect(n, (x) => x.type === 'identifier') : []);

/** Every place a Go scope binds a name: `:=`, `var`, `=`, `++`, parameters, range variables, `&x`. */
export function goBindings(scope: Node): Binding[] {
  const out: Binding[] = [];
  for (const n of collect(scope, (x) =>
    /^(?:short_var_declaration|var_spec|const_spec|assignment_statement|inc_statement|dec_statement|parameter_declaration|range_clause|unary_expression)$/.test(
      x.type,
    ),
  )) {
    if (n.type === 'short_var_declaration' || n.type === 'assignment_statement') {
      const left = n.childForFieldName('left')?.namedChildren ?? [];
      const right = n.childForFieldName('right')?.namedChildren ?? [];
      const plain = n.type === 'short_var_declaration' || n.children.some((c) => c.type === '=');
      left.forEach((l, i) => {
        if (l.type !== 'identifier') return ids(l).forEach((id) => out.push({ name: id.text, at: n }));
        const value = plain && left.length === right.length ? right[i] : undefined;
        out.push({ name: l.text, at: n, ...(value ? { value } : {}) });
      });
    } else if (n.type === 'var_spec' || n.type === 'const_spec') {
      const names = n.childrenForFieldName('name');
      const values = n.childForFieldName('value')?.namedChildren ?? [];
      names.forEach((id, i) =>
        out.push({ name: id.text, at: n, ...(values[i] ? { value: values[i] } : {}) }),
      );
    } else if (n.type === 'unary_expression') {
      if (n.childForFieldName('operator')?.text === '&')
        ids(n.childForFieldName('operand')).forEach((id) => out.push({ name: id.text, at: n }));
    } else if (n.type === 'range_clause')
      ids(n.childForFieldName('left')).forEach((id) => out.push({ name: id.text, at: n }));
    else if (n.type === 'parameter_declaration')
      n.childrenForFieldName('name').forEach((id) => out.push({ name: id.text, at: n }));
    else ids(n).forEach((id) => out.push({ name: id.text, at: n }));
  }
  return out;
}

/** A read of a variable: an identifier that is not a field name, a label or a declared name. */
export function goVariable(n: Node): boolean {
  return n.type === 'identifier' && n.field !== 'name' && n.parent?.type !== 'keyed_element';
}
