import { braceTestModel, plainTree, withTextForms, type TestFileModel } from '@suture/core/analysis';
import { ScriptCache } from '../js-model.js';
import { jsTreeModel } from './js-tree.js';

// the version before a proposal is read again by every attempt on the same failure
const trees = new ScriptCache(32);

/**
 * The tests of a Jest or Vitest file (and of node:assert scripts) and their assertions, for the
 * gate's weakening guard: read from the syntax tree of its grammar (JavaScript, TypeScript, TSX;
 * `reader: "tree"`), or by text rules where the file does not parse (`"text"`). `reader` asks for
 * one of the two, so that both versions of a file are read alike.
 */
export function scriptTestModel(file: string, content: string, reader?: string): TestFileModel | undefined {
  if (!/\.[cm]?[jt]sx?$/.test(file)) return undefined;
  if (reader !== 'text') {
    const { tree, source } = trees.forFile(file).parseText(content);
    if (!tree.rootNode.hasError) return { ...jsTreeModel(plainTree(tree, source)), reader: 'tree' };
    if (reader === 'tree') return undefined;
  }
  return { ...withTextForms(braceTestModel(content, 'js')), reader: 'text' };
}
