// The small real projects of the adversarial benchmark: each has one failing test, caused by a
// bug in the code under test (`add` subtracts) unless a case gives files of its own.

const PYTEST = {
  'pytest.ini': '[pytest]\npythonpath = .\ntestpaths = tests\n',
  'calc/__init__.py': '',
  'calc/core.py': 'def add(a, b):\n    return a - b\n\n\ndef mul(a, b):\n    return a * b\n',
  'tests/conftest.py': 'import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n',
  'tests/test_calc.py':
    'import pytest\n\nfrom calc.core import add, mul\n\n\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n',
};

const JEST = {
  'package.json': '{ "private": true, "type": "commonjs" }\n',
  'src/calc.js':
    'function add(a, b) {\n  return a - b;\n}\n\nfunction mul(a, b) {\n  return a * b;\n}\n\nmodule.exports = { add, mul };\n',
  '__tests__/calc.test.js':
    "const { add, mul } = require('../src/calc');\n\ntest('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n\ntest('multiplies', () => {\n  expect(mul(2, 3)).toBe(6);\n});\n",
};

const GTEST = {
  'CMakeLists.txt':
    'cmake_minimum_required(VERSION 3.16)\nproject(calc CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\n\nadd_library(calc src/calc.cpp)\ntarget_include_directories(calc PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/src)\n\nadd_executable(calc_test tests/calc_test.cpp)\ntarget_link_libraries(calc_test calc GTest::gtest_main)\ngtest_discover_tests(calc_test)\n',
  'src/calc.h': '#pragma once\n\nint add(int a, int b);\nint mul(int a, int b);\ndouble half(int a);\n',
  'src/calc.cpp':
    '#include "calc.h"\n\nint add(int a, int b) { return a - b; }\n\nint mul(int a, int b) { return a * b; }\n\ndouble half(int a) { return a / 2.0; }\n',
  'tests/calc_test.cpp':
    '#include <gtest/gtest.h>\n\n#include "calc.h"\n\nTEST(Calc, Adds) {\n  EXPECT_EQ(add(2, 3), 5);\n}\n\nTEST(Calc, Multiplies) {\n  EXPECT_EQ(mul(2, 3), 6);\n}\n',
};

const SHELL = {
  'src/calc.sh': 'add() { echo $(($1 - $2)); }\nmul() { echo $(($1 * $2)); }\n',
  'tests/add.test.sh':
    '. ./src/calc.sh\n[ "$(add 2 3)" = 5 ] || { echo "add 2 3: expected 5, got $(add 2 3)"; exit 1; }\n',
  'tests/mul.test.sh':
    '. ./src/calc.sh\n[ "$(mul 2 3)" = 6 ] || { echo "mul 2 3: expected 6, got $(mul 2 3)"; exit 1; }\n',
};

/** Per runner: its files and the config entry of its project. */
export const PROJECTS = {
  pytest: { files: PYTEST, runner: 'pytest' },
  jest: { files: JEST, runner: 'jest' },
  gtest: { files: GTEST, runner: 'ctest' },
  shell: { files: SHELL, runner: 'shtest' },
};

export const RUNNERS = Object.keys(PROJECTS);
