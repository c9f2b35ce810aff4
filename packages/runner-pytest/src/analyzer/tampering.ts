import { tamperingFrom, type Finding, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { isPythonTestFile } from './test-files.js';

/**
 * What a Python file does that lets code report its own success or end the run before a test
 * reports: reaching pytest's, unittest's or suture's modules, walking the heap or the stack into
 * the framework's objects and frames, forking and exiting, exit handlers, monkeypatching builtins,
 * printing result lines. Read from the syntax tree, so a comment or a string that only mentions
 * `os._exit` is nothing; names are followed through `import ... as` and `from ... import`.
 */

/** Modules that are the test framework or the runner: code under test has no business there. */
const FRAMEWORK = /^(?:_pytest|pytest|py\.test|unittest|pluggy|suture_pytest_\w+)(?:\.|$)/;
/** suture's own pytest plugin: not even a test imports it. */
const SUTURE = /^suture_pytest_\w+(?:\.|$)/;

const HEAP = new Set(['gc.get_objects', 'gc.get_referrers', 'gc.get_referents']);
const STACK = new Set([
  'sys._getframe',
  'sys._current_frames',
  'sys.settrace',
  'sys.setprofile',
  'threading.settrace',
  'inspect.currentframe',
  'inspect.stack',
  'inspect.trace',
  'inspect.getouterframes',
  'inspect.getinnerframes',
  'traceback.walk_stack',
]);
/** Attributes that step from an object into the interpreter's frames. */
const FRAME_ATTRIBUTES = new Set([
  'f_back',
  'f_globals',
  'f_locals',
  'f_builtins',
  'tb_frame',
  'gi_frame',
  'cr_frame',
]);
const FORK = new Set(['os.fork', 'os.forkpty', 'pty.fork']);
const HARD_EXIT = 'os._exit';
const SOFT_EXIT = new Set(['sys.exit', 'exit', 'quit']);
const EXIT_HANDLER = /^(?:atexit\.\w+|sys\.exitfunc|os\.register_at_fork)$/;
const CODE_FROM_TEXT = new Set(['eval', 'exec', 'compile']);
const BUILTINS = /^(?:builtins|__builtins__)(?:\.|$)/;
/** What pytest prints for a result, or what its report holds: `x.py::test PASSED`, `3 passed`. */
const RESULT_LINE = /\b(?:PASSED|XPASS)\b|\.py::\w|\b\d+ passed\b|["'](?:outcome|nodeid)["']\s*:/;
/** The keys of a pytest report, handed to a call (`emit({"nodeid": ..., "outcome": "passed"})`). */
const REPORT_KEY = /^(?:outcome|nodeid|longrepr|wasxfail)$/;

export interface PythonTamperingOptions {
  /** A test file, conftest or test helper: it may import pytest and patch builtins as tests do. */
  test: boolean;
  /** `__main__.py`: a program's entry, where exiting is its job. */
  entry: boolean;
}

type Names = Map<string, string>;

/** Local names bound by imports, to the dotted name they stand for (`o` -> `os`, `ex` -> `os._exit`). */
function importedNames(root: SyntaxNode): Names {
  const names: Names = new Map();
  for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    const from =
      node.type === 'import_from_statement' ? node.childForFieldName('module_name')?.text : undefined;
    for (const name of node.childrenForFieldName('name')) {
      const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')?.text : undefined;
      const dotted = (name.type === 'aliased_import' ? name.childForFieldName('name') : name)?.text;
      if (!dotted) continue;
      const full = from ? `${from}.${dotted}` : dotted;
      if (alias) names.set(alias, full);
      else if (from) names.set(dotted, full);
      else names.set(dotted.split('.')[0]!, dotted.split('.')[0]!);
    }
  }
  return names;
}

/** The dotted name an identifier or attribute chain stands for, imports followed; undefined for other expressions. */
function qualified(node: SyntaxNode, names: Names): string | undefined {
  if (node.type === 'identifier') return names.get(node.text) ?? node.text;
  if (node.type === 'call') return reached(node, names);
  if (node.type !== 'attribute') return undefined;
  const object = node.childForFieldName('object');
  const attribute = node.childForFieldName('attribute')?.text;
  const base = object ? qualified(object, names) : undefined;
  return base && attribute ? `${base}.${attribute}` : undefined;
}

/** What `getattr(os, "_exit")` and `__import__("gc")` stand for: `os._exit`, `gc`. */
function reached(call: SyntaxNode, names: Names): string | undefined {
  const fn = qualified(call.childForFieldName('function')!, names);
  const args = call.childForFieldName('arguments')?.namedChildren ?? [];
  if (fn === '__import__' || fn === 'importlib.import_module') return firstString(call);
  if (fn !== 'getattr' || args[1]?.type !== 'string') return undefined;
  const base = qualified(args[0]!, names);
  return base ? `${base}.${stringValue(args[1])}` : undefined;
}

/**
 * Inside `if __name__ == "__main__":`, which an import never runs, or, for `hard` false, in a
 * `main` function, where a CLI's `sys.exit` belongs (it raises SystemExit, which pytest reports).
 */
function inProgramEntry(node: SyntaxNode, hard: boolean): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (
      n.type === 'if_statement' &&
      /__name__\s*==\s*['"]__main__['"]/.test(n.childForFieldName('condition')?.text ?? '')
    )
      return true;
    if (!hard && n.type === 'function_definition' && n.childForFieldName('name')?.text === 'main')
      return true;
  }
  return false;
}

/** The first string argument of a call (`__import__("x")`, `sys.modules.get("x")`). */
function firstString(call: SyntaxNode): string | undefined {
  const arg = call.childForFieldName('arguments')?.namedChildren[0];
  return arg?.type === 'string' ? stringValue(arg) : undefined;
}

function stringValue(node: SyntaxNode): string {
  return node.namedChildren
    .filter((c) => c.type === 'string_content')
    .map((c) => c.text)
    .join('');
}

const isCalled = (node: SyntaxNode): boolean =>
  node.parent?.type === 'call' && node.parent.childForFieldName('function')?.id === node.id;

/** Is the string handed to a call, directly or inside the expression of an argument? */
function inArguments(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent) {
    if (n.type === 'argument_list') return true;
    if (n.type.endsWith('statement') || n.type === 'block' || n.type === 'module') return false;
  }
  return false;
}

/** Is `node` the `x` of `x.y`, or the `y`? Only the whole chain is a name. */
const insideChain = (node: SyntaxNode): boolean => node.parent?.type === 'attribute';

/** Modules a file reaches: imports, `__import__`, `importlib.import_module`, `sys.modules[...]`. */
function reachedModules(root: SyntaxNode, names: Names): Array<{ module: string; node: SyntaxNode }> {
  const out: Array<{ module: string; node: SyntaxNode }> = [];
  for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    const from = node.type === 'import_from_statement' ? node.childForFieldName('module_name') : null;
    if (from) out.push({ module: from.text, node });
    else
      for (const name of node.childrenForFieldName('name'))
        out.push({ module: (name.childForFieldName('name') ?? name).text, node });
  }
  for (const call of root.descendantsOfType('call')) {
    const fn = qualified(call.childForFieldName('function')!, names);
    if (fn === '__import__' || fn === 'importlib.import_module' || fn === 'sys.modules.get') {
      const module = firstString(call);
      if (module) out.push({ module, node: call });
    }
  }
  for (const sub of root.descendantsOfType('subscript')) {
    const value = sub.childForFieldName('value');
    const key = sub.childForFieldName('subscript');
    if (value && key?.type === 'string' && qualified(value, names) === 'sys.modules')
      out.push({ module: stringValue(key), node: sub });
  }
  return out;
}

/** Assignments, deletions and `setattr`/`delattr` calls that change `builtins`. */
function builtinsPatches(root: SyntaxNode, names: Names): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  const target = (n: SyntaxNode | null): string | undefined => {
    if (!n) return undefined;
    if (n.type === 'subscript') return target(n.childForFieldName('value'));
    return qualified(n, names);
  };
  for (const node of root.descendantsOfType(['assignment', 'augmented_assignment']))
    if (BUILTINS.test(target(node.childForFieldName('left')) ?? '')) out.push(node);
  for (const node of root.descendantsOfType('delete_statement'))
    if (node.namedChildren.some((c) => BUILTINS.test(target(c) ?? ''))) out.push(node);
  for (const call of root.descendantsOfType('call')) {
    const fn = qualified(call.childForFieldName('function')!, names);
    const first = call.childForFieldName('arguments')?.namedChildren[0];
    if ((fn === 'setattr' || fn === 'delattr') && first && BUILTINS.test(qualified(first, names) ?? ''))
      out.push(call);
  }
  return out;
}

/** Every finding of the tampering rules in one version of a Python file. */
/** What a comparison method that ignores its operand answers, by method. */
const CONSTANT_ANSWER: Record<string, string> = { __eq__: 'True', __ne__: 'False' };

/**
 * Comparison methods that return a constant whatever they are compared with (`def __eq__(self,
 * other): return True`): a value equal to anything makes `assert result == expected` pass.
 */
function alwaysEqual(root: SyntaxNode): SyntaxNode[] {
  return root.descendantsOfType('function_definition').filter((fn) => {
    const answer = CONSTANT_ANSWER[fn.childForFieldName('name')?.text ?? ''];
    if (!answer || fn.parent?.parent?.type !== 'class_definition') return false;
    const body = (fn.childForFieldName('body')?.namedChildren ?? []).filter(
      (n) =>
        n.type !== 'comment' && !(n.type === 'expression_statement' && n.firstNamedChild?.type === 'string'),
    );
    const first = body[0];
    return first?.type === 'return_statement' && first.firstNamedChild?.text === answer;
  });
}

export function pythonTamperingFindings(tree: SyntaxTree, options: PythonTamperingOptions): Finding[] {
  const root = tree.rootNode;
  const lines = tree.rootNode.text.split('\n');
  const names = importedNames(root);
  const defined = new Set(
    root
      .descendantsOfType(['function_definition', 'class_definition'])
      .map((d) => d.childForFieldName('name')?.text),
  );
  const found: Finding[] = [];
  const add = (node: SyntaxNode, key: string, reason: string): void => {
    const line = node.startPosition.row + 1;
    found.push({ key, line, reason, context: lines[line - 1]?.trim() ?? '' });
  };

  for (const { module, node } of reachedModules(root, names))
    if (SUTURE.test(module) || (!options.test && FRAMEWORK.test(module)))
      add(
        node,
        `module ${module}`,
        `a use of ${module}, the test framework or the runner, from code under test`,
      );

  let hardExit = false;
  const forks: SyntaxNode[] = [];
  for (const node of root.descendantsOfType(['identifier', 'attribute', 'call'])) {
    if (node.type === 'identifier' && insideChain(node)) continue;
    if (node.parent?.type === 'dotted_name' || node.parent?.type === 'aliased_import') continue;
    if (node.type === 'attribute' && FRAME_ATTRIBUTES.has(node.childForFieldName('attribute')?.text ?? ''))
      add(
        node,
        `frame .${node.childForFieldName('attribute')!.text}`,
        `${node.text}, a step into the interpreter's frames`,
      );
    const name =
      qualified(node, names) ??
      (node.type === 'attribute' && node.childForFieldName('attribute')?.text === '_exit'
        ? node.text
        : undefined);
    if (!name) continue;
    if (CODE_FROM_TEXT.has(name) && isCalled(node) && !options.test && !defined.has(name))
      add(node, name, `${name}(), code run from a string, which no rule can read`);
    else if (HEAP.has(name))
      add(node, name, `${name}(), a walk of every live object, the test framework's included`);
    else if (STACK.has(name)) add(node, name, `${name}(), a walk into the frames of the test framework`);
    else if (EXIT_HANDLER.test(name)) add(node, name, `${name}, an exit handler that runs after the tests`);
    else if (FORK.has(name)) forks.push(node);
    // `ctypes.CDLL(None)._exit` is libc's: any `_exit` is the hard one
    else if (name === HARD_EXIT || name.endsWith('._exit')) {
      hardExit = true;
      // a main() or a __main__.py can be called or imported by the code under test: only the guard is safe
      if (!inProgramEntry(node, true))
        add(node, name, `${name}(), which ends the test process before the test reports its result`);
    } else if (
      SOFT_EXIT.has(name) &&
      !options.test &&
      !options.entry &&
      (name === 'sys.exit' || (isCalled(node) && !defined.has(name))) &&
      !inProgramEntry(node, false)
    )
      add(node, name, `${name}(), which ends the test process before the test reports its result`);
  }
  // forking is how multiprocessing works; forking with a hard exit is how a test run is cut short
  if (hardExit)
    for (const node of forks)
      add(
        node,
        qualified(node, names)!,
        `${qualified(node, names)}() with os._exit, which ends the run early`,
      );

  if (!options.test) {
    for (const node of alwaysEqual(root))
      add(
        node,
        `always ${node.childForFieldName('name')!.text}`,
        `\`def ${node.childForFieldName('name')!.text}\` that answers the same for any value, so every equality check of it passes`,
      );
    for (const node of builtinsPatches(root, names))
      add(node, 'builtins', `\`${node.text.split('\n')[0]}\`, a change to builtins that the tests run with`);
    for (const string of root.descendantsOfType('string')) {
      if (!inArguments(string)) continue;
      if (RESULT_LINE.test(string.text) || REPORT_KEY.test(stringValue(string)))
        add(
          string,
          `result ${stringValue(string)}`,
          `${string.text.split('\n')[0]}, printed text that reads as a test result`,
        );
    }
  }
  return found;
}

/**
 * The analyzer's `checkTampering` for Python: what the edit adds of the rules above, with its
 * line; undefined for other files and for edits that add none.
 */
export function pythonTampering(
  parse: (source: string) => SyntaxTree,
  file: string,
  before: string | undefined,
  after: string,
): string | undefined {
  if (!file.endsWith('.py')) return undefined;
  const options = { test: isPythonTestFile(file), entry: /(?:^|\/)__main__\.py$/.test(file) };
  const old = before === undefined ? [] : pythonTamperingFindings(parse(before), options);
  return tamperingFrom(old, pythonTamperingFindings(parse(after), options));
}
