import { API_VERSION, type Analyzer } from '@suture/core';
import { SummaryCache } from '@suture/core/analysis';
import { analyzePytest } from './analyze.js';
import { createPythonCache } from './python-model.js';
import { PythonProject } from './python-project.js';
import { summarizePython, type PyModule } from './python-summary.js';
import { scopePytest } from './scope.js';
import { syntaxErrorLine } from './syntax.js';
import { pythonTampering } from './tampering.js';
import { TraceMemo } from './trace-memo.js';
import { SeenTests } from './trace-plan.js';
import { isPythonTestFile } from './test-files.js';
import type { TraceOptions } from './trace.js';
import { pythonTestModel } from './test-model/index.js';

export interface PythonAnalyzerOptions extends TraceOptions {
  /**
   * Run the failing tests and passing tests of the same files once more under a function tracer
   * to rank the scope by what they ran (default true). The runner passes its interpreter and env.
   */
  trace?: boolean;
}

/** The Python analyzer: groups pytest failures by root cause and walks the call graph for a ranked scope. */
export function pythonAnalyzer(options: PythonAnalyzerOptions = {}): Analyzer {
  // one tree at a time for summaries (they are what is kept), a few for syntax checks
  const parser = createPythonCache(1);
  const checker = createPythonCache(8);
  const summaries = new SummaryCache<PyModule>({
    name: 'python',
    version: 1,
    summarize: (source) => summarizePython(parser.parseText(source).tree),
  });
  const seen = new SeenTests();
  const traces = new TraceMemo();
  const { trace = true, ...run } = options;
  // PYTHONPATH entries inside the project (a src layout) are where its imports resolve from
  const paths = [
    'src',
    ...(run.env?.PYTHONPATH ?? '').split(':').filter((p) => p && !p.startsWith('/') && !p.startsWith('..')),
  ];
  return {
    name: '@suture/runner-pytest/analyzer',
    apiVersion: API_VERSION,
    analyze(result, project) {
      seen.record(project.root, result);
      return analyzePytest(result, project, new PythonProject(project.root, summaries, paths));
    },
    scope: (failure, project) =>
      scopePytest(failure, project, {
        summaries,
        paths,
        passing: (root, file) => seen.passing(root, file),
        allPassing: (root) => seen.allPassing(root),
        allFailing: (root) => seen.allFailing(root),
        duration: (root, id) => seen.duration(root, id),
        stuck: (root, id) => seen.stuck(root, id),
        traces,
        ...(trace ? { trace: run } : {}),
      }),
    isTestFile: isPythonTestFile,
    checkSyntax(file, content) {
      if (!file.endsWith('.py')) return undefined;
      const line = syntaxErrorLine(checker.parseText(content).tree);
      return line === undefined ? undefined : `syntax error near line ${line}`;
    },
    testModel: pythonTestModel,
    checkTampering: (file, before, after) =>
      pythonTampering((source) => checker.parseText(source).tree, file, before, after),
  };
}
