import { tamperingFrom, type Finding, type SyntaxNode, type SyntaxTree } from '@suture/core/analysis';
import { isCppSource } from './cpp-model.js';
import { isCppTestFile } from './test-files.js';

/**
 * What a C or C++ file does that lets code report its own success or end the run before a test
 * reports: defining or undefining test macros, skipping, including the framework from code under
 * test, reaching GoogleTest's `testing::` objects, exiting early, forking, exit and terminate
 * handlers, printing GoogleTest's or Unity's result lines. Read from the syntax tree (a macro's
 * body from its tokens), so comments and strings that only mention `_exit` are nothing.
 */

/** Names of the test frameworks' macros: code under test that defines one changes what the tests check. */
const TEST_MACRO =
  /^(?:EXPECT_\w+|ASSERT_\w+|GTEST_\w+|GMOCK_\w+|TEST|TEST_[FP]|TYPED_TEST\w*|INSTANTIATE_\w*TEST\w*|TEST_(?:ASSERT|FAIL|IGNORE|PASS|MESSAGE|ABORT)\w*|UNITY_\w+|RUN_TEST|RUN_ALL_TESTS|FAIL|SUCCEED|ADD_FAILURE\w*)$/;
/** The frameworks' own names, which a test file's helper macros must not take either. */
const FRAMEWORK_MACRO =
  /^(?:(?:EXPECT|ASSERT)_(?:TRUE|FALSE|EQ|NE|LT|LE|GT|GE|STREQ|STRNE|STRCASEEQ|STRCASENE|FLOAT_EQ|DOUBLE_EQ|NEAR|THROW|ANY_THROW|NO_THROW|DEATH|DEATH_IF_SUPPORTED|EXIT|NO_FATAL_FAILURE|THAT|CALL|PRED\d|PRED_FORMAT\d|HRESULT_SUCCEEDED|HRESULT_FAILED)|GTEST_\w+|TEST|TEST_[FP]|TYPED_TEST(?:_P)?|FAIL|SUCCEED|ADD_FAILURE(?:_AT)?|RUN_ALL_TESTS|TEST_(?:ASSERT|FAIL|IGNORE|PASS|MESSAGE|ABORT)\w*|RUN_TEST|UNITY_(?:BEGIN|END))$/;
const FRAMEWORK_HEADER =
  /^[<"](?:gtest|gmock|catch2)\/|^[<"](?:unity|unity_internals|unity_fixture|catch)\.hp?p?[>"]$/;
const EXIT = new Set(['_exit', '_Exit', 'exit', 'quick_exit']);
const FORK = new Set(['fork', 'vfork']);
const HANDLER = new Set(['atexit', 'at_quick_exit', 'set_terminate', 'set_unexpected']);
/** GoogleTest's and Unity's result lines: `[       OK ] Calc.Adds`, `[  PASSED  ] 2 tests.`, `x.c:4:test_a:PASS`. */
const RESULT_LINE =
  /\[\s*(?:OK|PASSED|FAILED|RUN|SKIPPED)\s*\]|\[[-=]{10}\]|\b\d+ Tests \d+ Failures \d+ Ignored\b|:PASS\b|\btests passed\b/;

export interface CppTamperingOptions {
  /** A test file or test header: it uses the framework's macros, and may include it. */
  test: boolean;
}

/** A call's name without `::` and `std::`: `std::exit` and `::exit` are `exit`. */
function callee(call: SyntaxNode): string | undefined {
  const fn = call.childForFieldName('function');
  if (fn?.type === 'identifier') return fn.text;
  if (fn?.type !== 'qualified_identifier') return undefined;
  const name = fn.text.replace(/\s+/g, '').replace(/^::/, '');
  return name.startsWith('std::') ? name.slice(5) : name.includes('::') ? undefined : name;
}

function inMain(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent)
    if (n.type === 'function_definition')
      return n.childForFieldName('declarator')?.childForFieldName('declarator')?.text === 'main';
  return false;
}

/** A macro's body as tokens: its string literals apart, its comments gone. */
function bodyTokens(body: string): { strings: string[]; calls: string[]; names: string[] } {
  const strings = [...body.matchAll(/"(?:[^"\\\n]|\\.)*"/g)].map((m) => m[0]);
  const code = body
    .replace(/"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'/g, '""')
    .replace(/\/\/.*|\/\*[^]*?\*\//g, ' ');
  const calls = [...code.matchAll(/(?<![\w.>])(?:(?:::)?std\s*::\s*|::\s*)?([A-Za-z_]\w*)\s*\(/g)].map(
    (m) => m[1]!,
  );
  const names = [...code.matchAll(/\b[A-Za-z_]\w*\b/g)].map((m) => m[0]);
  return { strings, calls, names };
}

/** Every finding of the tampering rules in one version of a C or C++ file. */
export function cppTamperingFindings(tree: SyntaxTree, options: CppTamperingOptions): Finding[] {
  const root = tree.rootNode;
  const lines = root.text.split('\n');
  const found: Finding[] = [];
  const add = (node: SyntaxNode, key: string, reason: string): void => {
    const line = node.startPosition.row + 1;
    found.push({ key, line, reason, context: lines[line - 1]?.trim() ?? '' });
  };
  const macro = options.test ? FRAMEWORK_MACRO : TEST_MACRO;
  const onCall = (node: SyntaxNode, name: string): void => {
    if (EXIT.has(name) && !inMain(node))
      add(node, `call ${name}`, `${name}(), which ends the test program before the test reports its result`);
    else if (FORK.has(name))
      add(node, `call ${name}`, `${name}(), a second process that can report for the first`);
    else if (HANDLER.has(name))
      add(node, `call ${name}`, `${name}(), a handler that runs when the test program ends`);
  };
  const onString = (node: SyntaxNode, text: string): void => {
    if (RESULT_LINE.test(text))
      add(node, `result ${text}`, `${text.split('\n')[0]}, printed text that reads as a test result`);
  };

  for (const node of root.descendantsOfType(['preproc_def', 'preproc_function_def'])) {
    const name = node.childForFieldName('name')?.text ?? '';
    if (macro.test(name)) add(node, `define ${name}`, `\`#define ${name}\`, a redefinition of a test macro`);
    const body = bodyTokens(node.childForFieldName('value')?.text ?? '');
    for (const call of body.calls) onCall(node, call);
    for (const text of body.strings) onString(node, text);
    if (body.names.includes('GTEST_SKIP'))
      add(node, 'GTEST_SKIP', 'GTEST_SKIP(), a skip of the running test');
  }
  for (const node of root.descendantsOfType('preproc_call')) {
    const name = node.childForFieldName('argument')?.text.trim() ?? '';
    if (node.childForFieldName('directive')?.text === '#undef' && macro.test(name))
      add(node, `undef ${name}`, `\`#undef ${name}\`, a test macro taken away`);
  }
  if (!options.test)
    for (const node of root.descendantsOfType('preproc_include')) {
      const path = node.childForFieldName('path')?.text ?? '';
      if (FRAMEWORK_HEADER.test(path))
        add(node, `include ${path}`, `\`#include ${path}\`, the test framework included by code under test`);
    }
  for (const node of root.descendantsOfType('call_expression')) {
    const name = callee(node);
    // the exit system call itself, which no libc wrapper sees
    const exitCall =
      name === 'syscall' && /^\(\s*(?:SYS|__NR)_exit/.test(node.childForFieldName('arguments')?.text ?? '');
    if (name) onCall(node, exitCall ? '_exit' : name);
  }
  for (const node of root.descendantsOfType('identifier'))
    if (
      node.text === 'GTEST_SKIP' &&
      node.parent?.type !== 'preproc_def' &&
      node.parent?.type !== 'preproc_function_def'
    )
      add(node, 'GTEST_SKIP', 'GTEST_SKIP(), a skip of the running test');
  if (!options.test)
    for (const node of root.descendantsOfType('namespace_identifier'))
      if (node.text === 'testing')
        add(
          node,
          'namespace testing',
          `\`${node.parent?.text ?? 'testing::'}\`, GoogleTest's own objects reached from code under test`,
        );
  for (const node of root.descendantsOfType(['string_literal', 'raw_string_literal']))
    onString(node, node.text);
  return found;
}

/**
 * The analyzer's `checkTampering` for C and C++: what the edit adds of the rules above, with its
 * line; undefined for other files and for edits that add none.
 */
export function cppTampering(
  parse: (source: string) => SyntaxTree,
  file: string,
  before: string | undefined,
  after: string,
): string | undefined {
  if (!isCppSource(file)) return undefined;
  const options = { test: isCppTestFile(file) };
  const old = before === undefined ? [] : cppTamperingFindings(parse(before), options);
  return tamperingFrom(old, cppTamperingFindings(parse(after), options));
}
