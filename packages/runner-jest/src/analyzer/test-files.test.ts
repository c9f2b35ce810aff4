import { describe, expect, it } from 'vitest';
import { javascriptAnalyzer } from './index.js';
import { isScriptTestFile } from './test-files.js';

describe('JavaScript and TypeScript test files', () => {
  it.each([
    ['src/cart.test.js', true],
    ['src/cart.spec.ts', true],
    ['src/cart.test.tsx', true],
    ['src/cart.test.mjs', true],
    ['src/__tests__/cart.js', true],
    ['src/__mocks__/fs.js', true],
    ['test/helpers.js', true],
    ['tests/x.cpp', true],
    ['src/cart.js', false],
    ['src/testing.ts', false],
    ['src/contest.js', false],
    ['src/test_utils.js', false],
    ['foo-test.cpp', false],
    ['conftest.py', false],
  ])('%s: %s', (file, expected) => {
    expect(isScriptTestFile(file)).toBe(expected);
    // the analyzer answers with the same matcher its scope reads
    expect(javascriptAnalyzer().isTestFile!(file)).toBe(expected);
  });
});
