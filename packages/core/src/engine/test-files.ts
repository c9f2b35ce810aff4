import type { Analyzer } from '../api/plugin.js';

const TEST_FILE =
  /(^|\/)(test_[^/]*\.py|[^/]*_test\.py|conftest\.py)$|\.(test|spec)\.[cm]?[jt]sx?$|(^|\/)__tests__\/|(^|\/)tests?\/[^/]*\.(c|cc|cpp|cxx)$|(^|\/)[^/]*_(test|unittest)\.(c|cc|cpp|cxx)$/;

/** Is this project-relative path a test file? The analyzer decides; a cross-language default otherwise. */
export function isTestFile(file: string, analyzer?: Analyzer): boolean {
  if (analyzer?.isTestFile) return analyzer.isTestFile(file);
  return TEST_FILE.test(file);
}
