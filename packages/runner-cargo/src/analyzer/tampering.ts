import { tamperingFrom, type Finding, type SyntaxNode } from '@suture/core/analysis';
import { rustParser } from './rust-syntax.js';
import { rustModel } from './test-model/index.js';
import type { RustModel } from './test-model/rust-tree.js';

const trees = rustParser(64);

/** libtest's result lines, which a test binary's own output must not print. */
const RESULT_LINE = /test result: (?:ok|FAILED)|\.\.\. ok\b|running \d+ tests?/;
const EXIT_CALL = /^(?:(?:std::)?process::)?(?:exit|abort)$/;
const HOOK_CALL = /^(?:(?:std::)?panic::)?(?:set_hook|take_hook|always_abort)$/;

function inMain(node: SyntaxNode): boolean {
  for (let n = node.parent; n; n = n.parent)
    if (n.type === 'function_item') return n.childForFieldName('name')?.text === 'main';
  return false;
}

/** Every finding of the Rust tampering rules in one version of a file, read from its syntax tree. */
export function rustTamperingFindings(root: SyntaxNode): Finding[] {
  const lines = root.text.split('\n');
  const found: Finding[] = [];
  const add = (node: SyntaxNode, key: string, reason: string): void => {
    const line = node.startPosition.row + 1;
    found.push({ key, line, reason, context: lines[line - 1]?.trim() ?? '' });
  };
  const visit = (n: SyntaxNode): void => {
    if (n.type === 'call_expression') {
      const f = n.childForFieldName('function')?.text.replace(/\s+/g, '') ?? '';
      if (EXIT_CALL.test(f) && f.includes('process') && !inMain(n))
        add(n, `call ${f}`, `${f}(), which ends the test binary before libtest reports the test's result`);
      if (HOOK_CALL.test(f) && f.includes('panic'))
        add(n, `call ${f}`, `${f}(), which replaces the panic hook libtest reads a failing test through`);
    } else if (n.type === 'string_literal' && RESULT_LINE.test(n.text)) {
      add(n, `string ${n.text}`, `the string ${n.text}, which reads as libtest's own result line`);
    } else if (n.type === 'macro_definition') {
      const name = n.childForFieldName('name')?.text ?? '';
      if (/^(?:debug_)?assert(?:_eq|_ne)?$/.test(name))
        add(
          n,
          `macro ${name}`,
          `macro_rules! ${name}, which the tests' ${name}! would call instead of the standard one`,
        );
    } else if (n.type === 'attribute_item' || n.type === 'inner_attribute_item') {
      const text = n.text.replace(/\s+/g, '');
      if (/^#!?\[cfg\((?:not\(test\)|any\(\)|false)\)\]$/.test(text) || /^#!?\[cfg_attr\(test,/.test(text))
        add(n, `attr ${text}`, `${text}, which compiles code out of (or changes it in) the test build`);
      if (/^#!\[(?:no_main|no_std|test_runner|feature\(custom_test_frameworks\))/.test(text))
        add(n, `attr ${text}`, `${text}, which replaces the test harness`);
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(root);
  return found;
}

/** How an edit weakens the `#[test]` functions of a file, read from its test model: the first way, or undefined. */
export function testWeakening(before: RustModel, after: RustModel): string | undefined {
  for (const b of before.tests) {
    const a = after.tests.find((t) => t.name === b.name);
    if (!a) return `removes the test ${b.name}`;
    if (a.skipped && !b.skipped) return `marks the test ${b.name} #[ignore]`;
    if (a.shouldPanic && !b.shouldPanic)
      return `marks the test ${b.name} #[should_panic], so its failing assertions pass it`;
    const live = (t: typeof a): number => t.assertions.filter((x) => !x.disarmed && !x.constant).length;
    if (live(a) < live(b)) {
      const gone = a.assertions.find(
        (x) => x.disarmed && !b.assertions.some((y) => y.text === x.text && y.disarmed),
      );
      const constant = a.assertions.find((x) => x.constant && !b.assertions.some((y) => y.text === x.text));
      if (gone) return `disarms ${gone.text} in the test ${b.name}: ${gone.disarmed}`;
      if (constant) return `makes the test ${b.name} assert ${constant.text}, which cannot fail`;
      return `removes assertions from the test ${b.name}`;
    }
  }
  const redefined = after.redefinitions.find((r) => !before.redefinitions.includes(r));
  return redefined ? `defines ${redefined}` : undefined;
}

/**
 * Does this edit of a Rust file let it report its own success or end the run early? Added calls
 * of `process::exit`/`abort` outside `main`, panic hooks, libtest's result lines in strings,
 * `macro_rules!` of the assert macros, `#[cfg(not(test))]`-like attributes and harness switches;
 * and, for the unit tests a source file holds in its `mod tests`, what the weakening guard checks
 * in a test file: a test removed, marked `#[ignore]` or `#[should_panic]`, an assertion removed,
 * made constant (`assert_eq!(a, a)`, `assert!(true)`) or placed after an early return. Changing
 * only an expected value is left to the tests' own run.
 */
export function rustTampering(file: string, before: string | undefined, after: string): string | undefined {
  if (!file.endsWith('.rs')) return undefined;
  const next = trees.parseText(after).tree;
  const prev = before !== undefined ? trees.parseText(before).tree : undefined;
  const found = tamperingFrom(
    prev ? rustTamperingFindings(prev.rootNode) : [],
    rustTamperingFindings(next.rootNode),
  );
  if (found) return found;
  if (before === undefined) return undefined;
  const [b, a] = [rustModel(before), rustModel(after)];
  if (!b || !a) return undefined;
  const weak = testWeakening(b, a);
  return weak ? `the edit ${weak}` : undefined;
}
