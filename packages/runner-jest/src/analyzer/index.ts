import { API_VERSION, type Analyzer } from '@suture/core';
import { analyzeJest } from './analyze.js';
import { ScriptCache } from './js-model.js';
import { scopeJest } from './scope.js';
import { isScriptTestFile } from './test-files.js';

/** The JS/TS analyzer: groups Jest failures by root cause and walks imports and requires for a scope. */
export function javascriptAnalyzer(): Analyzer {
  const cache = new ScriptCache();
  return {
    name: '@suture/runner-jest/analyzer',
    apiVersion: API_VERSION,
    analyze: (result, project) => analyzeJest(result, project, cache),
    scope: (failure, project) => scopeJest(failure, project, cache),
    isTestFile: isScriptTestFile,
    checkSyntax(file, content) {
      if (!/\.[cm]?[jt]sx?$/.test(file)) return undefined;
      const { tree } = cache.forFile(file).parseText(content);
      if (!tree.rootNode.hasError) return undefined;
      const bad = tree.rootNode.descendantsOfType('ERROR')[0];
      return `syntax error near line ${(bad?.startPosition.row ?? 0) + 1}`;
    },
  };
}
