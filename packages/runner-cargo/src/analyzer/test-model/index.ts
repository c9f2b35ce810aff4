import type { TestFileModel } from '@suture/core';
import { rustParser } from '../rust-syntax.js';
import { rustTreeModel, type RustModel } from './rust-tree.js';

// the version before a proposal is read again by every attempt on the same failure
const trees = rustParser(32);

/** The model of a Rust file's syntax tree, or undefined when it does not parse. */
export function rustModel(content: string): RustModel | undefined {
  const { tree } = trees.parseText(content);
  if (tree.rootNode.hasError) return undefined;
  return rustTreeModel(tree.rootNode);
}

/**
 * The tests of a Rust file and their assertions, for the gate's weakening guard: `#[test]`
 * functions (in inline modules too), `assert!`/`assert_eq!`/`assert_ne!` and their debug forms,
 * `#[ignore]` as a skip, `#[should_panic]` and early returns as what disarms an assertion,
 * `macro_rules! assert_eq` as a redefinition. Read from the syntax tree only: a file that does not
 * parse has no model (rustc would refuse it anyway).
 */
export function rustTestModel(file: string, content: string, reader?: string): TestFileModel | undefined {
  if (!file.endsWith('.rs') || (reader !== undefined && reader !== 'tree')) return undefined;
  const model = rustModel(content);
  if (!model) return undefined;
  const { tests, ...rest } = model;
  return { ...rest, tests: tests.map(({ shouldPanic: _, ...t }) => t), reader: 'tree' };
}
