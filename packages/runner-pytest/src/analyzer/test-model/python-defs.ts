import type { PlainNode as Node } from '@suture/core/analysis';
import { cleanText, collect, type Dialect } from '@suture/core/analysis';
import { isOwnModule, ownModule, setattrTarget } from './python-names.js';
import type { Definition } from '@suture/core/analysis';

const MOCK_CALL =
  /^(?:(?:\w+\.)*(?:mock\.)?patch(?:\.object|\.dict|\.multiple)?|monkeypatch\.(?:setattr|setitem|delattr|delitem|syspath_prepend)|mocker\.(?:patch(?:\.object|\.dict|\.multiple)?|spy)|setattr|delattr)$/;
/** Calls that replace an attribute of an object they are given: `setattr(obj, name, value)` and kin. */
const SETATTR = /^(?:setattr|delattr|monkeypatch\.(?:setattr|delattr)|(?:\w+\.)*patch\.object)$/;
const ASSERTION_LIKE = /^(?:assert\w*|AssertionError|raises|pytest|unittest|approx|fail)$/;

const fn = (call: Node): string => call.childForFieldName('function')?.text ?? '';

/** Imported name -> `module` or `module:name`, for every import of the file. */
export function importsOf(root: Node): Record<string, string> {
  const imports: Record<string, string> = {};
  for (const s of collect(root, (n) => n.type === 'import_from_statement' || n.type === 'import_statement')) {
    const from = s.type === 'import_from_statement' ? (s.childForFieldName('module_name')?.text ?? '') : '';
    for (const n of s.childrenForFieldName('name')) {
      const alias = n.type === 'aliased_import' ? n.childForFieldName('alias')!.text : n.text.split('.')[0]!;
      const what = n.type === 'aliased_import' ? n.childForFieldName('name')!.text : n.text;
      imports[alias] = from ? `${from}:${what}` : what;
    }
  }
  return imports;
}

/** What the file (or a test, for names it imports or assertions) binds that could shadow an assertion or the code under test. */
export function definitionsOf(
  root: Node,
  tests: readonly Node[],
  imports: Readonly<Record<string, string>>,
  py: Dialect,
): Definition[] {
  const definitions: Definition[] = [];
  const bind = (name: string | undefined, node: Node, local: boolean): void => {
    if (!name || (local && !(name in imports) && !ASSERTION_LIKE.test(name))) return;
    definitions.push({
      name,
      text: cleanText(node, py)
        .split(/:\s|\n/)[0]!
        .slice(0, 80),
    });
  };
  const scan = (scope: Node, local: boolean): void => {
    for (const s of scope.namedChildren) {
      const d = s.type === 'decorated_definition' ? s.childForFieldName('definition')! : s;
      if (d.type === 'function_definition' || d.type === 'class_definition')
        bind(
          d.childForFieldName('name')?.text,
          d,
          local || /^test/.test(d.childForFieldName('name')?.text ?? ''),
        );
      const a = s.type === 'expression_statement' ? s.namedChildren[0] : undefined;
      if (a?.type === 'assignment') {
        const left = a.childForFieldName('left')!;
        const name =
          left.type === 'attribute'
            ? left.childForFieldName('attribute')?.text
            : left.type === 'identifier'
              ? left.text
              : undefined;
        if (left.type === 'identifier' || (name && ASSERTION_LIKE.test(name)))
          bind(name, a, local || left.type !== 'identifier');
      }
      for (const i of s.type === 'import_statement' || s.type === 'import_from_statement'
        ? s.childrenForFieldName('name')
        : [])
        if (i.type === 'aliased_import' && ASSERTION_LIKE.test(i.childForFieldName('alias')!.text))
          bind(i.childForFieldName('alias')!.text, s, false);
    }
  };
  scan(root, false);
  for (const t of tests) scan(t, true);
  // a method of a test class named like an assertion (`def assertEqual(self, *a): pass`) shadows
  // it, and so does one bound in any function that runs with the tests (`self.assertEqual = ...`
  // in `setUp`)
  const scopes = collect(root, (n) => n.type === 'class_definition' || n.type === 'function_definition');
  for (const c of scopes)
    if (!tests.some((t) => t.id === c.childForFieldName('body')?.id))
      scan(c.childForFieldName('body')!, true);
  return definitions;
}

/**
 * The file's mocking statements: mock and monkeypatch calls, `setattr`, and attributes of other
 * objects assigned (`calc.add = lambda a, b: 5`). A `setattr` with a computed name (`"a" + "dd"`)
 * can spell any attribute of what it is given: the statement names what that object holds.
 */
export function pythonMocks(
  root: Node,
  imports: Readonly<Record<string, string>>,
  aliases: ReadonlyMap<string, Node>,
  py: Dialect,
): string[] {
  return [
    ...collect(root, (n) => n.type === 'call' && MOCK_CALL.test(fn(n))).map((c) => {
      // a computed name (`"a" + "dd"`) can spell any attribute of what it is given
      const name = c.childForFieldName('arguments')?.namedChildren[1];
      const target =
        SETATTR.test(fn(c)) && name?.type !== 'string' ? setattrTarget(c, imports, aliases) : undefined;
      return `${cleanText(c, py)}${target ? ` (any attribute of ${target})` : ''}`;
    }),
    // `calc.add = lambda a, b: 5` and `sys.modules["calc"] = fake`: replacing the code by assignment;
    // `globals()["a" + "dd"] = fake` reaches whatever the file imported
    ...collect(root, (n) => n.type === 'assignment').flatMap((a) => {
      const left = a.childForFieldName('left')!;
      const own = left.type === 'subscript' && isOwnModule(left.childForFieldName('value')!, aliases);
      if (own) return [`${cleanText(a, py)} (any name of ${ownModule(imports)})`];
      return (left.type === 'attribute' && !/^(?:self|cls)\./.test(left.text)) ||
        /^sys\.modules\[/.test(left.text)
        ? [cleanText(a, py)]
        : [];
    }),
  ];
}
