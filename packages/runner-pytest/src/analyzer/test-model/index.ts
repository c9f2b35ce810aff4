import { plainTree, withTextForms, type TestFileModel } from '@suture/core/analysis';
import { createPythonCache } from '../python-model.js';
import { pythonTestModel as pythonTextModel } from './python-text.js';
import { pythonTreeModel } from './python-tree.js';

// the version before a proposal is read again by every attempt on the same failure
const trees = createPythonCache(32);

/**
 * The tests of a Python test file (pytest and unittest) and their assertions, for the gate's
 * weakening guard: read from the syntax tree (`reader: "tree"`), or by text rules where the file
 * does not parse (`"text"`: a test file whose syntax error is the failure being fixed). `reader`
 * asks for one of the two, so that both versions of a file are read alike.
 */
export function pythonTestModel(file: string, content: string, reader?: string): TestFileModel | undefined {
  if (!/\.pyi?$/.test(file)) return undefined;
  if (reader !== 'text') {
    const { tree, source } = trees.parseText(content);
    if (!tree.rootNode.hasError) return { ...pythonTreeModel(plainTree(tree, source)), reader: 'tree' };
    if (reader === 'tree') return undefined;
  }
  return { ...withTextForms(pythonTextModel(content)), reader: 'text' };
}
