import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, collect, type Dialect } from '@suture/core/analysis';
import type { Definition } from '@suture/core/analysis';

const MOCK = /^(?:jest|vi)\.(?:mock|doMock|spyOn|unstable_mockModule|replaceProperty|stubGlobal)$/;
const MOCK_METHOD = /\.mock(?:Implementation|ReturnValue|ResolvedValue|RejectedValue)\w*$/;
const ASSERTION_LIKE = /^(?:expect|assert|test|it|describe|fail)$/;

const callee = (call: Node): Node | null => call.childForFieldName('function');

/** What the file binds that could shadow an assertion or the code under test, and what it imports. */
export function definitionsAndImports(
  root: Node,
  bodies: readonly Node[],
  js: Dialect,
): { definitions: Definition[]; imports: Record<string, string> } {
  const imports: Record<string, string> = {};
  for (const s of collect(root, (n) => n.type === 'import_statement')) {
    const from = s.childForFieldName('source')?.text.slice(1, -1) ?? '';
    for (const id of collect(s, (n) => n.type === 'identifier' && n.parent?.type !== 'import_specifier'))
      imports[id.text] = from;
    for (const spec of collect(s, (n) => n.type === 'import_specifier'))
      imports[(spec.childForFieldName('alias') ?? spec.childForFieldName('name'))!.text] =
        `${from}:${spec.childForFieldName('name')!.text}`;
  }
  for (const d of collect(
    root,
    (n) => n.type === 'variable_declarator' && /^require\(/.test(n.childForFieldName('value')?.text ?? ''),
  )) {
    const from = /^require\(\s*["'`]([^"'`]+)/.exec(d.childForFieldName('value')!.text)?.[1] ?? '';
    for (const id of collect(d.childForFieldName('name')!, (n) =>
      /^(?:identifier|shorthand_property_identifier_pattern)$/.test(n.type),
    ))
      imports[id.text] = from;
  }
  const definitions: Definition[] = [];
  const bind = (name: string | undefined, node: Node, local: boolean): void => {
    if (!name || (local && !(name in imports) && !ASSERTION_LIKE.test(name))) return;
    definitions.push({
      name,
      text: cleanText(node, js)
        .split(/\s*[{=]/)[0]!
        .slice(0, 80),
    });
  };
  const scan = (scope: Node, local: boolean): void => {
    for (const raw of scope.namedChildren) {
      const s = raw.type === 'export_statement' ? (raw.childForFieldName('declaration') ?? raw) : raw;
      if (/^(?:function_declaration|generator_function_declaration|class_declaration)$/.test(s.type))
        bind(s.childForFieldName('name')?.text, s, local);
      if (s.type === 'lexical_declaration' || s.type === 'variable_declaration')
        for (const d of s.namedChildren.filter((x) => x.type === 'variable_declarator'))
          if (
            !/^require\(/.test(d.childForFieldName('value')?.text ?? '') &&
            d.childForFieldName('name')?.type === 'identifier'
          )
            bind(d.childForFieldName('name')!.text, d, local);
    }
  };
  scan(root, false);
  for (const b of bodies)
    for (const block of collect(b, (n) => n.type === 'statement_block')) scan(block, true);
  for (const a of collect(root, (n) => n.type === 'assignment_expression')) {
    const left = a.childForFieldName('left')!;
    const name = left.type === 'member_expression' ? left.childForFieldName('property')!.text : left.text;
    if (
      ASSERTION_LIKE.test(name) &&
      (left.type === 'identifier' || /^(?:global|globalThis|window)\./.test(left.text))
    )
      bind(name, a, false);
  }
  for (const c of collect(
    root,
    (n) => n.type === 'call_expression' && /^expect\.extend$/.test(callee(n)?.text ?? ''),
  ))
    definitions.push({ name: 'expect', text: cleanText(c, js).slice(0, 80) });
  for (const spec of collect(root, (n) => n.type === 'import_specifier' && !!n.childForFieldName('alias')))
    bind(spec.childForFieldName('alias')!.text, spec, true);
  return { definitions, imports };
}

/**
 * The file's mocking statements: jest/vi mocks and spies, mocked implementations, property
 * definitions, and members of other objects assigned (`calc.add = () => 5`, `calc['a' + 'dd'] = ...`).
 */
export function jsMocks(root: Node, js: Dialect): string[] {
  return [
    ...collect(
      root,
      (n) =>
        n.type === 'call_expression' &&
        (MOCK.test(callee(n)?.text ?? '') ||
          MOCK_METHOD.test(callee(n)?.text ?? '') ||
          /^(?:Object\.defineProperty|Reflect\.(?:set|defineProperty))$/.test(callee(n)?.text ?? '')),
    ),
    ...collect(
      root,
      (n) =>
        n.type === 'assignment_expression' &&
        /^(?:member|subscript)_expression$/.test(n.childForFieldName('left')?.type ?? '') &&
        !/^(?:this|module|exports|global|globalThis|window)\b/.test(n.childForFieldName('left')!.text),
    ),
  ].map((n) => cleanText(n, js));
}
