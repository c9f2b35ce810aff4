import { API_VERSION, type Analyzer } from '@suture/core';
import { PassingTests, SummaryCache } from '@suture/core/analysis';
import { analyzeCtest } from './analyze.js';
import { CrashBacktraces } from './crash-backtrace.js';
import { createCppCache } from './cpp-model.js';
import { DefinitionIndex } from './cpp-project.js';
import { summarizeCpp, type CppFile } from './cpp-summary.js';
import { scopeCtest } from './scope.js';
import { cppTampering } from './tampering.js';
import { TestEntries } from './test-entries.js';
import { isCppTestFile } from './test-files.js';
import { cppTestModel } from './test-model/index.js';

/**
 * The C/C++ analyzer: build failures as one group, test failures located and grouped, and a
 * ranked scope through calls, includes (with the build's compile_commands.json) and macros.
 */
export function cppAnalyzer(): Analyzer {
  const parser = createCppCache(1);
  // the two versions of each file a proposal edits
  const checker = createCppCache(4);
  const summaries = new SummaryCache<CppFile>({
    name: 'cpp',
    version: 2,
    summarize: (source) => summarizeCpp(parser.parseText(source).tree),
  });
  const definitions = new DefinitionIndex();
  const passing = new PassingTests();
  const entries = new TestEntries();
  const backtraces = new CrashBacktraces();
  return {
    name: '@suture/runner-ctest/analyzer',
    apiVersion: API_VERSION,
    analyze(result, project) {
      passing.record(project.root, result, (t) => t.file);
      entries.record(result);
      return analyzeCtest(result, project, summaries, backtraces, definitions);
    },
    scope: (failure, project) =>
      scopeCtest(failure, project, {
        summaries,
        definitions,
        passing: (root, file) => passing.of(root, file),
        entries,
        backtraces,
      }),
    isTestFile: isCppTestFile,
    testModel: cppTestModel,
    checkTampering: (file, before, after) =>
      cppTampering((source) => checker.parseText(source).tree, file, before, after),
  };
}
