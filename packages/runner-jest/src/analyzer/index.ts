import { API_VERSION, type Analyzer } from '@suture/core';
import { PassingTests, SummaryCache } from '@suture/core/analysis';
import { parseId } from '../ids.js';
import { analyzeJest } from './analyze.js';
import { ScriptCache } from './js-model.js';
import { summarizeScript, type JsModule } from './js-summary.js';
import { scopeJest } from './scope.js';
import { scriptTampering } from './tampering.js';
import { isScriptTestFile } from './test-files.js';
import { scriptTestModel } from './test-model/index.js';

/** The JS/TS analyzer: groups Jest failures by root cause and walks imports and exports for a ranked scope. */
export function javascriptAnalyzer(): Analyzer {
  const cache = new ScriptCache();
  // one summary cache, keyed by content: a file parses with the grammar its name asks for
  const parsers = new ScriptCache(1);
  const summaries = new SummaryCache<JsModule>({
    name: 'javascript',
    version: 4,
    summarize: (source, file) => summarizeScript(parsers.forFile(file).parseText(source).tree),
  });
  const passing = new PassingTests();
  return {
    name: '@suture/runner-jest/analyzer',
    apiVersion: API_VERSION,
    analyze(result, project) {
      passing.record(project.root, result, (t) => parseId(t.id).file);
      return analyzeJest(result, project, cache, summaries);
    },
    scope: (failure, project) =>
      scopeJest(failure, project, { summaries, passing: (root, file) => passing.of(root, file) }),
    isTestFile: isScriptTestFile,
    checkSyntax(file, content) {
      if (!/\.[cm]?[jt]sx?$/.test(file)) return undefined;
      const { tree } = cache.forFile(file).parseText(content);
      if (!tree.rootNode.hasError) return undefined;
      const bad = tree.rootNode.descendantsOfType('ERROR')[0];
      return `syntax error near line ${(bad?.startPosition.row ?? 0) + 1}`;
    },
    testModel: scriptTestModel,
    checkTampering: (file, before, after) =>
      scriptTampering((name, source) => cache.forFile(name).parseText(source).tree, file, before, after),
  };
}
