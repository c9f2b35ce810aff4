import { plainTree, type TestFileModel } from '@suture/core/analysis';
import { createGoCache } from '../../go-source.js';
import { goTreeModel } from './go-tree.js';

// the version before a proposal is read again by every attempt on the same failure
const trees = createGoCache(32);

/**
 * The tests of a Go test file and their assertions, for the gate's weakening guard: `t.Error*`
 * and `t.Fatal*` under the conditions that call them, testify's `assert`/`require` checks, and
 * `t.Skip*`. Read from the syntax tree only: a file that does not parse is not read (the compiler
 * refuses it anyway).
 */
export function goTestModel(file: string, content: string, reader?: string): TestFileModel | undefined {
  if (!file.endsWith('_test.go') || (reader !== undefined && reader !== 'tree')) return undefined;
  const { tree, source } = trees.parseText(content);
  if (tree.rootNode.hasError) return undefined;
  return { ...goTreeModel(plainTree(tree, source)), reader: 'tree' };
}
