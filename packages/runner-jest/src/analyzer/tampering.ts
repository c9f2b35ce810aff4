import { tamperingFrom, type Finding, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { isScriptTestFile } from './test-files.js';

/**
 * What a JavaScript or TypeScript file does that lets code report its own success or end the run
 * before a test reports: replacing the test globals (`expect`, `test`, `it`, `describe`, `jest`,
 * `vi`, the hooks) on the global object, extending `expect` from code under test, requiring the
 * test framework from code under test, exiting or killing the process, exit handlers, printing
 * result lines. Runner-neutral: Jest's and Vitest's globals alike. Read from the syntax tree, so
 * comments and strings that only mention `process.exit` are nothing.
 */

const GLOBAL_OBJECTS = new Set(['global', 'globalThis', 'window', 'self']);
const TEST_GLOBALS = new Set([
  'expect',
  'test',
  'it',
  'describe',
  'suite',
  'bench',
  'jest',
  'vi',
  'vitest',
  'beforeAll',
  'beforeEach',
  'afterAll',
  'afterEach',
  'fit',
  'fdescribe',
  'xit',
  'xtest',
  'xdescribe',
  'pending',
  'fail',
]);
/** The test frameworks' packages: code under test has no business requiring them. */
const FRAMEWORK_MODULE =
  /^(?:jest|expect|vitest|jest-[\w-]+|@jest\/[\w-]+|@vitest\/[\w-]+|vitest\/[\w/-]+|node:test)$/;
const EXIT = new Set(['process.exit', 'process.reallyExit']);
const LISTEN = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener']);
/** What Jest and Vitest print for results, or what Jest's JSON report holds. */
const RESULT_LINE =
  /^\s*(?:PASS|FAIL)\s+\S+\.\w+|\bTest (?:Suites|Files):\s+\d|\bTests:\s+\d+ (?:passed|failed)|numFailedTests|numPassedTests/;

export interface ScriptTamperingOptions {
  /** A test file, mock or test helper: it may require the framework and extend `expect`. */
  test: boolean;
}

/** The expression under a TypeScript cast or parentheses: `(global as any)` is `global`. */
function unwrap(node: SyntaxNode): SyntaxNode {
  let n = node;
  while (
    [
      'parenthesized_expression',
      'as_expression',
      'non_null_expression',
      'satisfies_expression',
      'type_assertion',
    ].includes(n.type) &&
    n.namedChildren[0]
  )
    n = n.namedChildren[0];
  return n;
}

function stringValue(node: SyntaxNode | null | undefined): string | undefined {
  if (!node || (node.type !== 'string' && node.type !== 'template_string')) return undefined;
  if (node.namedChildren.some((c) => c.type === 'template_substitution')) return undefined;
  return node.namedChildren
    .filter((c) => c.type === 'string_fragment')
    .map((c) => c.text)
    .join('');
}

/** `a.b['c']` as `['a', 'b', 'c']`; undefined for an expression that is not a name. */
function namePath(node: SyntaxNode): string[] | undefined {
  const n = unwrap(node);
  if (n.type === 'identifier') return [n.text];
  if (n.type === 'member_expression') {
    const base = namePath(n.childForFieldName('object')!);
    const property = n.childForFieldName('property')?.text;
    return base && property ? [...base, property] : undefined;
  }
  if (n.type === 'subscript_expression') {
    const base = namePath(n.childForFieldName('object')!);
    const key = stringValue(n.childForFieldName('index'));
    return base && key !== undefined ? [...base, key] : undefined;
  }
  return undefined;
}

const throughGlobal = (path: readonly string[]): boolean => path.length > 1 && GLOBAL_OBJECTS.has(path[0]!);

/** The name with the global object left out: `globalThis.expect` is `expect`. */
function pathOf(node: SyntaxNode): string[] | undefined {
  let path = namePath(node);
  while (path && throughGlobal(path)) path = path.slice(1);
  return path;
}

/** Does the expression name the global object itself (`globalThis`, `(window as any)`)? */
const isGlobalObject = (node: SyntaxNode): boolean => {
  const path = pathOf(node);
  return path?.length === 1 && GLOBAL_OBJECTS.has(path[0]!);
};

/** Names the file declares itself: a local `it` (an iterator) is not Jest's. */
function declaredNames(root: SyntaxNode): Set<string> {
  const names = new Set<string>();
  for (const d of root.descendantsOfType([
    'variable_declarator',
    'function_declaration',
    'class_declaration',
  ]))
    if (d.childForFieldName('name')?.type === 'identifier') names.add(d.childForFieldName('name')!.text);
  for (const p of root.descendantsOfType([
    'formal_parameters',
    'import_clause',
    'object_pattern',
    'array_pattern',
  ]))
    for (const id of p.descendantsOfType(['identifier', 'shorthand_property_identifier_pattern']))
      names.add(id.text);
  return names;
}

/** Names taken out of `process` (`const { exit } = process`), to what they are (`process.exit`). */
function processNames(root: SyntaxNode): Map<string, string> {
  const names = new Map<string, string>();
  for (const d of root.descendantsOfType('variable_declarator')) {
    const value = d.childForFieldName('value');
    const pattern = d.childForFieldName('name');
    if (!value || pattern?.type !== 'object_pattern' || pathOf(value)?.join('.') !== 'process') continue;
    for (const c of pattern.namedChildren) {
      if (c.type === 'shorthand_property_identifier_pattern') names.set(c.text, `process.${c.text}`);
      const key = c.type === 'pair_pattern' ? c.childForFieldName('key')?.text : undefined;
      const local = c.type === 'pair_pattern' ? c.childForFieldName('value')?.text : undefined;
      if (key && local) names.set(local, `process.${key}`);
    }
  }
  return names;
}

/** Inside `if (require.main === module)`: a program's own exit. */
function inProgramEntry(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent)
    if (
      n.type === 'if_statement' &&
      /require\.main\s*===?\s*module|import\.meta\.main/.test(n.childForFieldName('condition')?.text ?? '')
    )
      return true;
  return false;
}

/** Is the string handed to a call, directly or inside the expression of an argument? */
function inArguments(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === 'arguments') return true;
    if (n.type.endsWith('statement') || n.type.endsWith('declaration') || n.type === 'program') return false;
  }
  return false;
}

const args = (call: SyntaxNode): SyntaxNode[] => call.childForFieldName('arguments')?.namedChildren ?? [];

/** The keys an object literal sets: `{ expect, it: f, ['test']: g }`. */
function objectKeys(node: SyntaxNode | undefined): string[] {
  if (node?.type !== 'object') return [];
  return node.namedChildren.flatMap((c) => {
    if (c.type === 'shorthand_property_identifier') return [c.text];
    const key = c.childForFieldName('key');
    return key ? [stringValue(key) ?? key.text] : [];
  });
}

/** Every finding of the tampering rules in one version of a JS or TS file. */
export function scriptTamperingFindings(tree: SyntaxTree, options: ScriptTamperingOptions): Finding[] {
  const root = tree.rootNode;
  const lines = root.text.split('\n');
  const found: Finding[] = [];
  const add = (node: SyntaxNode, key: string, reason: string): void => {
    const line = node.startPosition.row + 1;
    found.push({ key, line, reason, context: lines[line - 1]?.trim() ?? '' });
  };
  const declared = declaredNames(root);
  const fromProcess = processNames(root);
  const replaced = (node: SyntaxNode, name: string): void =>
    add(node, `global ${name}`, `\`${node.text.split('\n')[0]}\`, a test global replaced or changed`);

  for (const node of root.descendantsOfType(['assignment_expression', 'augmented_assignment_expression'])) {
    const left = node.childForFieldName('left')!;
    const path = pathOf(left);
    if (!path || !TEST_GLOBALS.has(path[0]!)) continue;
    const viaGlobal = throughGlobal(namePath(left)!);
    // a test may set what its framework offers (`expect.x = ...` in a helper); a global replaced is never a test's job
    if (viaGlobal || (!options.test && !(path.length === 1 && declared.has(path[0]!))))
      replaced(node, path.join('.'));
  }

  for (const call of root.descendantsOfType('call_expression')) {
    const fn = call.childForFieldName('function')!;
    const path = pathOf(fn);
    const name = (path?.length === 1 ? fromProcess.get(path[0]!) : undefined) ?? path?.join('.');
    const [first, second] = args(call);
    if (name === 'Object.defineProperty' || name === 'Reflect.defineProperty' || name === 'Reflect.set') {
      const key = stringValue(second);
      if (first && (isGlobalObject(first) || TEST_GLOBALS.has(pathOf(first)?.[0] ?? '')) && key !== undefined)
        if (isGlobalObject(first) ? TEST_GLOBALS.has(key) : !options.test) replaced(call, key);
    } else if (name === 'Object.defineProperties' || name === 'Object.assign') {
      if (first && isGlobalObject(first))
        for (const key of objectKeys(second)) if (TEST_GLOBALS.has(key)) replaced(call, key);
    } else if ((name === 'eval' || name === 'Function') && !options.test && !declared.has(name)) {
      add(call, name, `${name}(), code run from a string, which no rule can read`);
    } else if (name === 'expect.extend' && !options.test) {
      add(call, 'expect.extend', '`expect.extend(...)`, matchers changed from code under test');
    } else if (name !== undefined && EXIT.has(name) && !inProgramEntry(call)) {
      add(call, name, `${name}(), which ends the test process before the test reports its result`);
    } else if (name === 'process.kill' && /^process\.p?pid$/.test(first?.text ?? '')) {
      add(
        call,
        name,
        `process.kill(${first!.text}), which ends the test process before the test reports its result`,
      );
    } else if (
      name?.startsWith('process.') &&
      LISTEN.has(name.slice(8)) &&
      /^(?:exit|beforeExit)$/.test(stringValue(first) ?? '')
    ) {
      add(
        call,
        `${name} ${stringValue(first)}`,
        `${name}('${stringValue(first)}'), a handler that runs when the test process ends`,
      );
    } else if (!options.test && (name === 'require' || name === 'require.resolve' || fn.type === 'import')) {
      const module = stringValue(first);
      if (module !== undefined && FRAMEWORK_MODULE.test(module))
        add(call, `module ${module}`, `a use of ${module}, the test framework, from code under test`);
    }
  }

  if (!options.test) {
    for (const node of root.descendantsOfType('new_expression'))
      if (node.childForFieldName('constructor')?.text === 'Function' && !declared.has('Function'))
        add(node, 'Function', 'Function(), code run from a string, which no rule can read');
    for (const node of root.descendantsOfType(['import_statement', 'export_statement'])) {
      const module = stringValue(node.childForFieldName('source'));
      if (module !== undefined && FRAMEWORK_MODULE.test(module))
        add(node, `module ${module}`, `a use of ${module}, the test framework, from code under test`);
    }
    for (const node of root.descendantsOfType(['string', 'template_string']))
      if (inArguments(node) && RESULT_LINE.test(node.text.slice(1, -1)))
        add(
          node,
          `result ${node.text}`,
          `${node.text.split('\n')[0]}, printed text that reads as a test result`,
        );
  }
  return found;
}

/**
 * The analyzer's `checkTampering` for JS and TS: what the edit adds of the rules above, with its
 * line; undefined for other files and for edits that add none.
 */
export function scriptTampering(
  parse: (file: string, source: string) => SyntaxTree,
  file: string,
  before: string | undefined,
  after: string,
): string | undefined {
  if (!/\.[cm]?[jt]sx?$/.test(file)) return undefined;
  const options = { test: isScriptTestFile(file) };
  const old = before === undefined ? [] : scriptTamperingFindings(parse(file, before), options);
  return tamperingFrom(old, scriptTamperingFindings(parse(file, after), options));
}
