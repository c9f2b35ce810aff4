import { describe, expect, it } from 'vitest';
import { pythonAnalyzer } from './index.js';
import { isPythonTestFile } from './test-files.js';

describe('Python test files', () => {
  it.each([
    ['tests/test_cart.py', true],
    ['src/shop/cart_test.py', true],
    ['conftest.py', true],
    ['tests/unit/conftest.py', true],
    ['tests/factories.py', true],
    ['test/data/prices.json', true],
    ['shop/cart.py', false],
    ['shop/testing.py', false],
    ['shop/contest.py', false],
    ['foo-test.cpp', false],
    ['src/cart.test.ts', false],
  ])('%s: %s', (file, expected) => {
    expect(isPythonTestFile(file)).toBe(expected);
    // the analyzer answers with the same matcher its scope reads
    expect(pythonAnalyzer().isTestFile!(file)).toBe(expected);
  });
});
