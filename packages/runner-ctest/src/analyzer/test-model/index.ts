import { braceTestModel, plainTree, withTextForms, type TestFileModel } from '@suture/core/analysis';
import { createCppCache, isCppSource } from '../cpp-model.js';
import { cppTreeModel } from './cpp-tree.js';

// the version before a proposal is read again by every attempt on the same failure
const trees = createCppCache(32);

/**
 * The tests of a GoogleTest, Unity or plain C/C++ test file and their assertions, for the gate's
 * weakening guard: read from the syntax tree (`reader: "tree"`), or by text rules where the file
 * does not parse (`"text"`). `reader` asks for one of the two, so that both versions of a file are
 * read alike.
 */
export function cppTestModel(file: string, content: string, reader?: string): TestFileModel | undefined {
  if (!isCppSource(file)) return undefined;
  if (reader !== 'text') {
    const { tree, source } = trees.parseText(content);
    if (!tree.rootNode.hasError) return { ...cppTreeModel(plainTree(tree, source)), reader: 'tree' };
    if (reader === 'tree') return undefined;
  }
  return { ...withTextForms(braceTestModel(content, 'cpp')), reader: 'text' };
}
