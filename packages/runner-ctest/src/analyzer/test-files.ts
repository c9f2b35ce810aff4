import { testFileMatcher } from '@suture/core/analysis';

/**
 * The C and C++ test-file names in common use (`test_x.c`, `x_test.cc`, `x-test.cpp`,
 * `x_unittest.cc`, `XTest.cpp`) and `test`/`tests`/`unittests` folders, sources and headers alike.
 * CMake names no test files, so these conventions stand in for it; the analyzer's `isTestFile` and
 * the roles of its scope both read them.
 */
export const isCppTestFile: (file: string) => boolean = testFileMatcher({
  extensions: ['.c', '.cc', '.cpp', '.cxx', '.c++', '.h', '.hh', '.hpp', '.hxx'],
  prefixes: ['test_'],
  suffixes: ['_test', '-test', '_tests', '-tests', '_unittest', 'Test', 'Tests'],
  folders: ['test', 'tests', 'unittests'],
});
