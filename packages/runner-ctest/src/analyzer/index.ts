import { API_VERSION, type Analyzer } from '@suture/core';
import { analyzeCtest } from './analyze.js';
import { createCppCache } from './cpp-model.js';
import { scopeCtest } from './scope.js';
import { isCppTestFile } from './test-files.js';

/** The C/C++ analyzer: build failures as one group, gtest failures located, scope through includes. */
export function cppAnalyzer(): Analyzer {
  const cache = createCppCache();
  return {
    name: '@suture/runner-ctest/analyzer',
    apiVersion: API_VERSION,
    analyze: (result, project) => analyzeCtest(result, project, cache),
    scope: (failure, project) => scopeCtest(failure, project, cache),
    isTestFile: isCppTestFile,
  };
}
