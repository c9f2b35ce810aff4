import { createHash } from 'node:crypto';
import type { Analyzer } from '../api/plugin.js';
import { withTextForms } from './assertion-form-text.js';
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
  if (lang === 'python') return withTextForms(pythonTestModel(content));
  if (lang === 'cpp') return withTextForms(braceTestModel(content, 'cpp'));
  if (lang) return withTextForms(braceTestModel(content, 'js'));
  return undefined;
}

// The version before a proposal is read again by every attempt on the same failure: models are
// kept by language and content (a few, as a proposal touches few test files).
const models = new Map<string, FileModelDetail | null>();
const KEEP = 32;

/** The file's tests and assertions read from its syntax tree; undefined without a grammar or a clean parse. */
export function treeTestModel(file: string, content: string): FileModelDetail | undefined {
  const lang = treeLanguageOf(file);
  if (!lang) return undefined;
  const key = `${lang}\0${createHash('sha1').update(content).digest('hex')}`;
  if (!models.has(key)) {
    const root = parseTestFile(file, content);
    const model = !root
      ? null
      : lang === 'python'
        ? pythonTreeModel(root)
        : lang === 'cpp'
          ? cppTreeModel(root)
          : jsTreeModel(root);
    if (models.size >= KEEP) models.delete(models.keys().next().value!);
    models.set(key, model);
  }
  return models.get(key) ?? undefined;
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
