import type { Analyzer } from '../api/plugin.js';
import { braceTestModel } from './model-braces.js';
import { parseTestFile, treeLanguageOf } from './model-grammar.js';
import { pythonTestModel } from './model-python.js';
import { cppTreeModel } from './model-tree-cpp.js';
import { jsTreeModel } from './model-tree-js.js';
import { pythonTreeModel } from './model-tree-python.js';
import type { FileModelDetail, TestFileModel } from './test-model.js';

/** The file's tests and assertions by core's text rules, by extension. */
export function textTestModel(file: string, content: string): TestFileModel | undefined {
  const lang = treeLanguageOf(file);
  if (lang === 'python') return pythonTestModel(content);
  if (lang === 'cpp') return braceTestModel(content, 'cpp');
  if (lang) return braceTestModel(content, 'js');
  return undefined;
}

/** The file's tests and assertions read from its syntax tree; undefined without a grammar or a clean parse. */
export function treeTestModel(file: string, content: string): FileModelDetail | undefined {
  const root = parseTestFile(file, content);
  if (!root) return undefined;
  const lang = treeLanguageOf(file);
  if (lang === 'python') return pythonTreeModel(root);
  if (lang === 'cpp') return cppTreeModel(root);
  return jsTreeModel(root);
}

export type ModelSource = 'analyzer' | 'tree' | 'text';

/**
 * Both versions of a test file, read alike: by the analyzer's own reader when it reads both, else
 * from syntax trees (comments, strings and nesting as the language has them) when a grammar is
 * installed and both parse, else by core's text rules.
 */
export function testModels(
  file: string,
  before: string,
  after: string,
  analyzer?: Analyzer,
  reader?: 'text',
): { old: FileModelDetail; now: FileModelDetail; source: ModelSource } | undefined {
  if (reader === 'text') {
    const old = textTestModel(file, before);
    const now = textTestModel(file, after);
    return old && now ? { old, now, source: 'text' } : undefined;
  }
  const ownOld = analyzer?.testModel?.(file, before);
  const ownNow = ownOld && analyzer?.testModel?.(file, after);
  if (ownOld && ownNow) return { old: ownOld, now: ownNow, source: 'analyzer' };
  const treeOld = treeTestModel(file, before);
  const treeNow = treeOld && treeTestModel(file, after);
  if (treeOld && treeNow) return { old: treeOld, now: treeNow, source: 'tree' };
  const old = textTestModel(file, before);
  const now = textTestModel(file, after);
  return old && now ? { old, now, source: 'text' } : undefined;
}
