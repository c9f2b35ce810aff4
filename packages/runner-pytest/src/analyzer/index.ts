import { API_VERSION, type Analyzer } from '@suture/core';
import { analyzePytest } from './analyze.js';
import { createPythonCache } from './python-model.js';
import { scopePytest } from './scope.js';
import { isPythonTestFile } from './test-files.js';

/** The Python analyzer: groups pytest failures by root cause and walks the call graph for a scope. */
export function pythonAnalyzer(): Analyzer {
  const cache = createPythonCache();
  return {
    name: '@suture/runner-pytest/analyzer',
    apiVersion: API_VERSION,
    analyze: (result, project) => analyzePytest(result, project, cache),
    scope: (failure, project) => scopePytest(failure, project, cache),
    isTestFile: isPythonTestFile,
    checkSyntax(file, content) {
      if (!file.endsWith('.py')) return undefined;
      const { tree } = cache.parseText(content);
      if (!tree.rootNode.hasError) return undefined;
      const bad =
        tree.rootNode.descendantsOfType('ERROR')[0] ?? tree.rootNode.descendantsOfType('MISSING')[0];
      return `syntax error near line ${(bad?.startPosition.row ?? 0) + 1}`;
    },
  };
}
