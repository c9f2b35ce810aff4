import { API_VERSION, type Analyzer } from '@suture/core';
import { SummaryCache } from '@suture/core/analysis';
import { createGoCache, summarizeGo, type GoFile } from '../go-source.js';
import { analyzeGo } from './analyze.js';
import { scopeGo } from './scope.js';
import { goTampering } from './tampering.js';
import { isGoTestFile } from './test-files.js';
import { goTestModel } from './test-model/index.js';

/**
 * The Go analyzer: build and vet errors as one group, failing tests located (at the assertion,
 * the panic's frame or the stuck goroutine) and grouped, and a ranked scope through the calls,
 * methods and interfaces of the module's packages.
 */
export function goAnalyzer(): Analyzer {
  const parser = createGoCache(1);
  const checker = createGoCache(4);
  const summaries = new SummaryCache<GoFile>({
    name: 'go',
    version: 1,
    summarize: (source) => summarizeGo(parser.parseText(source).tree),
  });
  return {
    name: '@suture/runner-go/analyzer',
    apiVersion: API_VERSION,
    analyze: (result, project) => analyzeGo(result, project, summaries),
    scope: (failure, project) => scopeGo(failure, project, summaries),
    isTestFile: isGoTestFile,
    checkSyntax: (file, content) => {
      if (!file.endsWith('.go')) return undefined;
      const { tree } = checker.parseText(content);
      if (!tree.rootNode.hasError) return undefined;
      let bad = tree.rootNode.descendantsOfType('ERROR')[0] ?? tree.rootNode;
      if (bad.type !== 'ERROR') bad = tree.rootNode;
      return `${file}:${bad.startPosition.row + 1}: the Go source does not parse`;
    },
    testModel: goTestModel,
    checkTampering: (file, before, after) =>
      goTampering((source) => checker.parseText(source).tree, file, before, after),
  };
}
