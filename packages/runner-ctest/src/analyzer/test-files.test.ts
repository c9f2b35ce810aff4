import { describe, expect, it } from 'vitest';
import { cppAnalyzer } from './index.js';
import { isCppTestFile } from './test-files.js';

describe('C and C++ test files', () => {
  it.each([
    ['foo-test.cpp', true],
    ['foo_test.cc', true],
    ['src/foo_unittest.cc', true],
    ['test_stack.c', true],
    ['lib/StackTest.cpp', true],
    ['tests/x.cpp', true],
    ['tests/helpers.h', true],
    ['tests/CMakeLists.txt', true],
    ['unittests/ADT/APIntTest.cpp', true],
    ['src/calc.cpp', false],
    ['src/calc.h', false],
    ['src/latest.cpp', false],
    ['src/contest.cc', false],
    ['CMakeLists.txt', false],
    ['conftest.py', false],
    ['src/cart.test.ts', false],
  ])('%s: %s', (file, expected) => {
    expect(isCppTestFile(file)).toBe(expected);
    // the analyzer answers with the same matcher its scope reads
    expect(cppAnalyzer().isTestFile!(file)).toBe(expected);
  });
});
