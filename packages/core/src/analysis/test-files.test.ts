import { describe, expect, it } from 'vitest';
import { testFileMatcher, type TestFileConventions } from './test-files.js';

// conventions of the shape the first-party analyzers give: each language states its own
const python: TestFileConventions = {
  extensions: ['.py'],
  prefixes: ['test_'],
  suffixes: ['_test'],
  infrastructure: ['conftest.py'],
  folders: ['tests', 'test'],
};
const cpp: TestFileConventions = {
  extensions: ['.c', '.cc', '.cpp', '.cxx', '.h', '.hh', '.hpp', '.hxx'],
  prefixes: ['test_'],
  suffixes: ['_test', '-test', '_tests', '-tests', '_unittest'],
  folders: ['tests', 'test'],
};
const script: TestFileConventions = {
  extensions: ['.js', '.jsx', '.ts', '.tsx', '.mjs', '.cjs', '.mts', '.cts'],
  suffixes: ['.test', '.spec'],
  folders: ['__tests__', '__mocks__'],
};

describe('testFileMatcher', () => {
  it.each([
    // file, python, cpp, script
    ['foo-test.cpp', false, true, false],
    ['foo_test.cc', false, true, false],
    ['src/foo_unittest.cxx', false, true, false],
    ['tests/x.cpp', true, true, false],
    ['tests/helpers.h', true, true, false],
    ['src/module/test/x.cc', true, true, false],
    ['conftest.py', true, false, false],
    ['tests/unit/conftest.py', true, true, false],
    ['src/conftest_utils.py', false, false, false],
    ['test_cart.py', true, false, false],
    ['cart_test.py', true, false, false],
    ['src/cart.py', false, false, false],
    ['src/contest.py', false, false, false],
    ['src/latest.cpp', false, false, false],
    ['test_.py', false, false, false],
    ['src/cart.test.ts', false, false, true],
    ['src/cart.spec.mjs', false, false, true],
    ['src/cart.test.tsx', false, false, true],
    ['src/__tests__/cart.js', false, false, true],
    ['src/__mocks__/fs.js', false, false, true],
    ['src/cart.ts', false, false, false],
    ['src/testing.ts', false, false, false],
    ['src/test_utils.js', false, false, false],
    ['.test.ts', false, false, false],
  ])('%s: python %s, c++ %s, js/ts %s', (file, py, cc, js) => {
    expect(testFileMatcher(python)(file)).toBe(py);
    expect(testFileMatcher(cpp)(file)).toBe(cc);
    expect(testFileMatcher(script)(file)).toBe(js);
  });

  it('reads paths with ./ and backslashes as the same file', () => {
    const isTest = testFileMatcher(cpp);
    expect(isTest('./tests/x.cpp')).toBe(true);
    expect(isTest('tests\\x.cpp')).toBe(true);
    expect(isTest('src\\foo-test.cpp')).toBe(true);
  });

  it('matches names case-sensitively and needs a stem besides the prefix or suffix', () => {
    const isTest = testFileMatcher(python);
    expect(isTest('Test_cart.py')).toBe(false);
    expect(isTest('TESTS/cart.py')).toBe(false);
    expect(isTest('_test.py')).toBe(false);
  });

  it('knows nothing it is not told: no conventions, no test files', () => {
    const isTest = testFileMatcher({ extensions: [] });
    expect(['tests/x.cpp', 'conftest.py', 'a.test.ts', 'test_a.py'].some(isTest)).toBe(false);
  });
});
