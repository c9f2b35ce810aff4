import { describe, expect, it } from 'vitest';
import { infrastructureEdit, isInfrastructureFile } from './infrastructure.js';

const CONFTEST = `import pytest


@pytest.fixture
def cart():
    return []
`;
const HOOK = `

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
`;
const CMAKE = `add_library(calc src/calc.cpp)
add_executable(calc_tests tests/calc_test.cpp)
add_test(NAME calc COMMAND calc_tests)
`;
const PKG = JSON.stringify({ name: 'x', scripts: { test: 'jest' }, dependencies: { a: '1' } }, null, 2);

describe('test infrastructure is not a fix target', () => {
  it.each([
    [
      'a conftest hook that marks every test passed',
      'conftest.py',
      CONFTEST,
      CONFTEST + HOOK,
      /a pytest hook/,
    ],
    [
      'pytest_collection_modifyitems in a conftest',
      'tests/conftest.py',
      CONFTEST,
      `${CONFTEST}\ndef pytest_collection_modifyitems(items):\n    items.clear()\n`,
      /a pytest hook/,
    ],
    ['pytest.ini', 'pytest.ini', '[pytest]\n', '[pytest]\naddopts = -k "not add"\n', /the whole file/],
    [
      'pyproject pytest options',
      'pyproject.toml',
      '[project]\nname = "x"\n',
      '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "--deselect tests/test_a.py"\n',
      /tool\.pytest/,
    ],
    [
      'jest config',
      'jest.config.js',
      'module.exports = {};\n',
      "module.exports = { testPathIgnorePatterns: ['calc'] };\n",
      /the whole file/,
    ],
    ['a jest setup file', 'jest.setup.ts', '', 'global.expect = () => ({ toBe() {} });\n', /the whole file/],
    ['package.json test script', 'package.json', PKG, PKG.replace('"jest"', '"jest || true"'), /"scripts"/],
    [
      'CTest WILL_FAIL',
      'CMakeLists.txt',
      CMAKE,
      `${CMAKE}set_tests_properties(calc PROPERTIES WILL_FAIL TRUE)\n`,
      /CTest command/,
    ],
    [
      'CTest PASS_REGULAR_EXPRESSION',
      'CMakeLists.txt',
      CMAKE,
      `${CMAKE}set_tests_properties(calc PROPERTIES PASS_REGULAR_EXPRESSION ".*")\n`,
      /CTest command/,
    ],
    [
      'the add_test command',
      'CMakeLists.txt',
      CMAKE,
      CMAKE.replace('COMMAND calc_tests', 'COMMAND true'),
      /CTest command/,
    ],
  ])('refuses %s', (_name, file, before, after, what) => {
    const reason = infrastructureEdit(file, before, after);
    expect(reason).toMatch(what);
    expect(reason).toContain(`${file}: `);
    expect(reason).toContain('heal.allowTestWeakening');
  });

  it.each([
    ['a conftest fixture', 'conftest.py', CONFTEST, CONFTEST.replace('return []', 'return [1]')],
    [
      'a source file of a CMake target',
      'CMakeLists.txt',
      CMAKE,
      CMAKE.replace('src/calc.cpp', 'src/calc.cpp src/util.cpp'),
    ],
    ['a package.json dependency', 'package.json', PKG, PKG.replace('"1"', '"2"')],
    [
      'a pyproject dependency',
      'pyproject.toml',
      '[project]\ndependencies = []\n',
      '[project]\ndependencies = ["attrs"]\n',
    ],
    [
      'a source file',
      'calc/core.py',
      'def add(a, b):\n    return a - b\n',
      'def add(a, b):\n    return a + b\n',
    ],
  ])('accepts %s', (_name, file, before, after) => {
    expect(infrastructureEdit(file, before, after)).toBeUndefined();
  });

  it('keeps whole infrastructure files out of scope by name', () => {
    expect(
      ['pytest.ini', 'web/jest.config.ts', 'src/setupTests.js', 'conftest.py', 'src/app.ts'].map(
        isInfrastructureFile,
      ),
    ).toEqual([true, true, true, false, false]);
  });
});
