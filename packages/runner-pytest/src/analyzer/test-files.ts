import { testFileMatcher } from '@suture/core/analysis';

/**
 * pytest's own discovery names (`test_*.py`, `*_test.py`), `conftest.py` (fixtures and hooks the
 * tests run with: test infrastructure, on the test side), and anything under a `tests` or `test`
 * folder (helpers, data). The analyzer's `isTestFile` and the roles of its scope both read this.
 */
export const isPythonTestFile: (file: string) => boolean = testFileMatcher({
  extensions: ['.py'],
  prefixes: ['test_'],
  suffixes: ['_test'],
  infrastructure: ['conftest.py'],
  folders: ['tests', 'test'],
});
