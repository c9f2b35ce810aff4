/** @typedef {[name: string, file: string, before: string, after: string]} Case */

/**
 * Proposals that weaken what a test runs rather than the assertions written in it: a helper the
 * test calls gutted (the HumanEval `check(candidate)` shape, in the test file, a conftest or a
 * test-utility module), the rows of data the assertions run over emptied or shrunk, a dead branch
 * whose condition is a comparison or a module constant, an alias of a catch-all exception, a
 * computed `setattr` of the code under test, an assertion method overridden in the test class, a
 * function holding the assertion never called. And the legitimate fixes next to each: a helper's
 * expected value changed, an assertion made through a new local variable, a row corrected or
 * added, a loop rewritten over the same rows. Read by the syntax-tree readers.
 */

function sub(name, text, from, to) {
  if (!text.includes(from)) throw new Error(`"${from}" is not in the base of ${name}`);
  return text.replace(from, to);
}

/** A case: `base` and `base` with each `[from, to]` replaced in turn. */
function edit(name, file, base, ...pairs) {
  const after = [];
  for (let i = 0; i < pairs.length; i += 2) after.push([pairs[i], pairs[i + 1]]);
  return [name, file, base, after.reduce((text, [from, to]) => sub(name, text, from, to), base)];
}

const HUMANEVAL = `from calc import add


def check(candidate):
    assert candidate(2, 3) == 5
    assert candidate(0, 0) == 0


def test_add():
    check(add)
`;

const CONFTEST = `import pytest


def check(candidate):
    assert candidate(2, 3) == 5


@pytest.fixture
def numbers():
    return [1, 2, 3]
`;

const HELPERS = `def check_add(add):
    assert add(2, 3) == 5
    assert add(-1, 1) == 0
`;

const IMPORTED = `from calc import add
from tests.helpers import check_add


def test_add():
    check_add(add)
`;

const JS_IMPORTED = `import { add } from '../src/calc';
import { expectSum } from './utils';

test('adds', () => {
  expectSum(add);
});
`;

const PY = `import pytest
import calc.core
from calc.core import add

DEBUG = False


def test_add():
    assert add(2, 3) == 5
`;

const PY_CASES = `import pytest
from calc import add

CASES = [(2, 3, 5), (1, 1, 2), (0, 0, 0)]


def test_table():
    for a, b, want in CASES:
        assert add(a, b) == want


def test_inline():
    for a, b, want in [(2, 3, 5), (4, 4, 8)]:
        assert add(a, b) == want


@pytest.mark.parametrize("a,b,want", [(2, 3, 5), (1, 1, 2)])
def test_rows(a, b, want):
    assert add(a, b) == want
`;

const UNITTEST = `import unittest
from calc import add


class TestCalc(unittest.TestCase):
    def _check(self, a, b, want):
        self.assertEqual(add(a, b), want)

    def test_add(self):
        self._check(2, 3, 5)
`;

const JS = `import { add } from '../src/calc';

function check(f) {
  expect(f(2, 3)).toBe(5);
  expect(f(0, 0)).toBe(0);
}

const checkZero = (f) => {
  expect(f(0, 0)).toBe(0);
};

const DEBUG = false;

test('adds through helpers', () => {
  check(add);
  checkZero(add);
});

test('adds', () => {
  expect(add(2, 3)).toBe(5);
});
`;

const JS_CASES = `import * as calc from '../src/calc';

const CASES = [
  [2, 3, 5],
  [1, 1, 2],
];

test.each([
  [2, 3, 5],
  [1, 1, 2],
])('adds %i and %i', (a, b, want) => {
  expect(calc.add(a, b)).toBe(want);
});

test('adds the table', () => {
  for (const [a, b, want] of CASES) {
    expect(calc.add(a, b)).toBe(want);
  }
});

test('adds', () => {
  expect(calc.add(2, 3)).toBe(5);
});
`;

const UTILS = `export function expectSum(add) {
  expect(add(2, 3)).toBe(5);
}
`;

const CPP = `#include <gtest/gtest.h>

#include "calc.h"

static const int kCases[][3] = {{2, 3, 5}, {1, 1, 2}};
constexpr bool kVerbose = false;

static void check(int (*f)(int, int)) {
  EXPECT_EQ(f(2, 3), 5);
  EXPECT_EQ(f(0, 0), 0);
}

TEST(Calc, Helper) { check(add); }

TEST(Calc, Table) {
  for (const auto& c : kCases) {
    EXPECT_EQ(add(c[0], c[1]), c[2]);
  }
}

TEST(Calc, Adds) {
  EXPECT_EQ(add(2, 3), 5);
}
`;

const CPP_PARAM = `#include <gtest/gtest.h>

#include <tuple>

#include "calc.h"

class AddTest : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(AddTest, Adds) {
  auto [a, b, want] = GetParam();
  EXPECT_EQ(add(a, b), want);
}

INSTANTIATE_TEST_SUITE_P(Small, AddTest,
                         ::testing::Values(std::make_tuple(2, 3, 5), std::make_tuple(1, 1, 2)));
`;

const CPP_FIXTURE = `#include <gtest/gtest.h>

#include "calc.h"

class CalcTest : public ::testing::Test {
 protected:
  void SetUp() override { base_ = 0; }
  int base_ = 0;
};

TEST_F(CalcTest, Adds) { EXPECT_EQ(add(2, 3), 5 + base_); }
`;

const fixture = (n, from, to) => edit(n, 'tests/fixture_test.cpp', CPP_FIXTURE, from, to);
const param = (n, from, to) => edit(n, 'tests/add_param_test.cpp', CPP_PARAM, from, to);
const PY_ALIAS = `from calc import core
from calc.core import add

plus = add


def test_add(monkeypatch):
    assert plus(2, 3) == 5
`;

const PY_LOCAL_CASES = `from calc import add
from tests.helpers import make_pair


def test_local_table():
    cases = [(2, 3, 5), (1, 1, 2)]
    for a, b, want in cases:
        assert add(a, b) == want


def test_pair():
    a, b = make_pair()
    make_pair()
    assert add(a, b) == 3
`;

const CPP_MACRO = `#include <gtest/gtest.h>

#include "calc.h"

#define VERIFY_SUM(f) EXPECT_EQ(f(2, 3), 5)

TEST(Calc, Adds) { VERIFY_SUM(add); }
`;

const he = (n, from, to) => edit(n, 'tests/test_humaneval.py', HUMANEVAL, from, to);
const py = (n, ...pairs) => edit(n, 'tests/test_calc.py', PY, ...pairs);
const rows = (n, from, to) => edit(n, 'tests/test_cases.py', PY_CASES, from, to);
const ut = (n, from, to) => edit(n, 'tests/test_unit.py', UNITTEST, from, to);
const js = (n, from, to) => edit(n, 'tests/calc.test.ts', JS, from, to);
const each = (n, from, to) => edit(n, 'tests/cases.test.js', JS_CASES, from, to);
const cc = (n, from, to) => edit(n, 'tests/calc_test.cpp', CPP, from, to);

const CHECKS = '    assert candidate(2, 3) == 5\n    assert candidate(0, 0) == 0\n';
const A = '    assert add(2, 3) == 5\n';
const E = '  expect(add(2, 3)).toBe(5);\n';
const G = '  EXPECT_EQ(add(2, 3), 5);\n';

const LOCAL = '    total = add(2, 3)\n    assert total == 5\n';
const LOCAL_JS = '  const total = add(2, 3);\n  expect(total).toBe(5);\n';
const LOCAL_CPP = '  int total = add(2, 3);\n  EXPECT_EQ(total, 5);\n';

/** @type {Case[]} */
export const WEAKENINGS = [
  // helpers the tests call
  he('HumanEval check gutted to assert True', CHECKS, '    assert True\n'),
  he('HumanEval check gutted to pass', CHECKS, '    pass\n'),
  he('HumanEval check returns before its asserts', CHECKS, '    return\n' + CHECKS),
  he(
    'HumanEval check rebinds its candidate',
    '    assert candidate(2, 3) == 5\n',
    '    candidate = lambda a, b: 5\n    assert candidate(2, 3) == 5\n',
  ),
  js(
    'JS helper rebinds its parameter',
    '  expect(f(2, 3)).toBe(5);\n',
    '  f = () => 5;\n  expect(f(2, 3)).toBe(5);\n',
  ),
  cc(
    'GoogleTest helper rebinds its parameter',
    '  EXPECT_EQ(f(2, 3), 5);\n',
    '  f = [](int, int) { return 5; };\n  EXPECT_EQ(f(2, 3), 5);\n',
  ),
  he(
    'HumanEval check no longer given the code under test',
    '    check(add)\n',
    '    check(lambda a, b: 5)\n',
  ),
  he('HumanEval check no longer called', '    check(add)\n', '    add(2, 3)\n'),
  he(
    'HumanEval check shadowed by a later definition',
    'def test_add',
    'def check(candidate):\n    pass\n\n\ndef test_add',
  ),
  edit(
    'conftest helper gutted',
    'tests/conftest.py',
    CONFTEST,
    '    assert candidate(2, 3) == 5\n',
    '    assert True\n',
  ),
  edit('test-utility helper gutted', 'tests/helpers.py', HELPERS, '    assert add(-1, 1) == 0\n', ''),
  edit(
    'imported test-utility helper no longer called',
    'tests/test_imported.py',
    IMPORTED,
    '    check_add(add)\n',
    '    add(2, 3)\n',
  ),
  edit(
    'imported JS test-utility helper no longer called',
    'tests/imported.test.ts',
    JS_IMPORTED,
    '  expectSum(add);\n',
    '  add(2, 3);\n',
  ),
  ut('unittest helper method gutted', '        self.assertEqual(add(a, b), want)\n', '        pass\n'),
  ut(
    'setUp skips every test of the class',
    '    def _check',
    '    def setUp(self):\n        self.skipTest("later")\n\n    def _check',
  ),
  ut(
    'assertEqual replaced in setUp',
    '    def _check',
    '    def setUp(self):\n        self.assertEqual = lambda *a: None\n\n    def _check',
  ),
  py(
    'a module-level importorskip of a missing module',
    'DEBUG = False\n',
    'DEBUG = False\npytest.importorskip("calc_v2")\n',
  ),
  py('importorskip in the test', A, '    pytest.importorskip("calc_v2")\n' + A),
  js(
    'a beforeEach hook skips every test',
    "test('adds through",
    "beforeEach((ctx) => {\n  ctx.skip();\n});\n\ntest('adds through",
  ),
  js('test.skipIf on the test', "test('adds', ", "test.skipIf(true)('adds', "),
  py(
    'an autouse fixture skips every test',
    'DEBUG = False\n',
    'DEBUG = False\n\n\n@pytest.fixture(autouse=True)\ndef _later():\n    pytest.skip("later")\n',
  ),
  ut(
    'assertEqual overridden in the TestCase class',
    '    def _check',
    '    def assertEqual(self, *a):\n        pass\n\n    def _check',
  ),
  js('JS helper function gutted', '  expect(f(2, 3)).toBe(5);\n', '  expect(true).toBe(true);\n'),
  js('JS arrow helper gutted', '  expect(f(0, 0)).toBe(0);\n};', '};'),
  js('JS helper no longer given the code under test', '  check(add);\n', '  check(() => 5);\n'),
  edit(
    'JS test-utility helper gutted',
    'test/utils.js',
    UTILS,
    '  expect(add(2, 3)).toBe(5);\n',
    '  expect(5).toBe(5);\n',
  ),
  cc(
    'a GoogleTest global environment that skips every test',
    '#include "calc.h"\n',
    '#include "calc.h"\n\nclass Later : public ::testing::Environment {\n  void SetUp() override { GTEST_SKIP(); }\n};\nstatic auto* const kLater = ::testing::AddGlobalTestEnvironment(new Later);\n',
  ),
  fixture('GoogleTest fixture SetUp skips every test', '{ base_ = 0; }', '{ GTEST_SKIP() << "later"; }'),
  edit(
    'a macro that expands to an assertion defined away',
    'tests/macro_test.cpp',
    CPP_MACRO,
    'EXPECT_EQ(f(2, 3), 5)',
    '(void)(f)',
  ),
  edit(
    'a use of the assertion macro removed',
    'tests/macro_test.cpp',
    CPP_MACRO,
    '{ VERIFY_SUM(add); }',
    '{ add(2, 3); }',
  ),
  cc(
    'GoogleTest helper gutted',
    '  EXPECT_EQ(f(2, 3), 5);\n  EXPECT_EQ(f(0, 0), 0);\n',
    '  EXPECT_TRUE(true);\n',
  ),
  cc(
    'GoogleTest helper returns before its EXPECTs',
    '  EXPECT_EQ(f(2, 3), 5);\n',
    '  return;\n  EXPECT_EQ(f(2, 3), 5);\n',
  ),
  cc(
    'GoogleTest helper no longer given the code under test',
    'check(add);',
    'check([](int, int) { return 5; });',
  ),
  // the locals an assertion reads
  [
    'the local the assert reads no longer holds the call',
    'tests/test_calc.py',
    sub('local', PY, A, LOCAL),
    sub('local', PY, A, LOCAL.replace('add(2, 3)', '5')),
  ],
  [
    'the local const the expect reads no longer holds the call',
    'tests/calc.test.ts',
    sub('local', JS, E, LOCAL_JS),
    sub('local', JS, E, LOCAL_JS.replace('add(2, 3)', '5')),
  ],
  [
    'the local the EXPECT reads no longer holds the call',
    'tests/calc_test.cpp',
    sub('local', CPP, G, LOCAL_CPP),
    sub('local', CPP, G, LOCAL_CPP.replace('add(2, 3)', '5')),
  ],
  // handlers, aliases and setattr
  py('bare except with a trailing comment', A, '    try:\n    ' + A + '    except:  # noqa\n        pass\n'),
  py(
    'an alias of BaseException caught',
    'DEBUG = False\n',
    'DEBUG = False\nE = BaseException\n',
    A,
    '    try:\n    ' + A + '    except E:\n        pass\n',
  ),
  py(
    'an alias of BaseException bound in the test caught',
    A,
    '    E = BaseException\n    try:\n    ' + A + '    except E:\n        pass\n',
  ),
  py(
    "setattr of the test module's own name with a computed name",
    A,
    '    import sys\n\n    setattr(sys.modules[__name__], "a" + "dd", lambda a, b: 5)\n' + A,
  ),
  py('globals() assigned by a computed name', A, '    globals()["a" + "dd"] = lambda a, b: 5\n' + A),
  py('assert under a local flag that is False', A, '    checked = False\n    if checked:\n    ' + A),
  py(
    'setattr of the code under test with a computed name',
    'def test_add():\n',
    'def test_add():\n    mod = calc.core\n    setattr(mod, "a" + "dd", lambda a, b: 5)\n',
  ),
  py(
    'monkeypatch.setattr with a computed name on an alias of the module',
    'def test_add():\n',
    'def test_add(monkeypatch):\n    m = calc.core\n    monkeypatch.setattr(m, "".join(["a", "dd"]), lambda a, b: 5)\n',
  ),
  edit(
    'the code under test patched under the name of a module-level alias',
    'tests/test_alias.py',
    PY_ALIAS,
    '    assert plus',
    '    monkeypatch.setattr(core, "add", lambda a, b: 5)\n    assert plus',
  ),
  each(
    'JS member of the code under test assigned by a computed name',
    E.replace('add', 'calc.add'),
    "  calc['a' + 'dd'] = () => 5;\n" + E.replace('add', 'calc.add'),
  ),
  // the data the assertions run over
  rows('module case list emptied', 'CASES = [(2, 3, 5), (1, 1, 2), (0, 0, 0)]', 'CASES = []'),
  rows(
    'module case list loses its failing row',
    'CASES = [(2, 3, 5), (1, 1, 2), (0, 0, 0)]',
    'CASES = [(1, 1, 2), (0, 0, 0)]',
  ),
  rows(
    'failing row replaced by a copy of a passing one',
    'CASES = [(2, 3, 5), (1, 1, 2), (0, 0, 0)]',
    'CASES = [(1, 1, 2), (1, 1, 2), (0, 0, 0)]',
  ),
  edit(
    'case list local to the test loses its failing row',
    'tests/test_local.py',
    PY_LOCAL_CASES,
    'cases = [(2, 3, 5), (1, 1, 2)]',
    'cases = [(1, 1, 2)]',
  ),
  rows('inline case list shrunk', 'in [(2, 3, 5), (4, 4, 8)]', 'in [(4, 4, 8)]'),
  rows('parametrize rows all removed', '[(2, 3, 5), (1, 1, 2)])', '[])'),
  rows('parametrize loses its failing row', '[(2, 3, 5), (1, 1, 2)])', '[(1, 1, 2)])'),
  each('test.each table emptied', '[\n  [2, 3, 5],\n  [1, 1, 2],\n])', '[])'),
  each('test.each loses its failing row', '[\n  [2, 3, 5],\n  [1, 1, 2],\n])', '[[1, 1, 2]])'),
  each('for...of case list emptied', 'const CASES = [\n  [2, 3, 5],\n  [1, 1, 2],\n];', 'const CASES = [];'),
  param(
    'GoogleTest parameter values lose the failing row',
    'std::make_tuple(2, 3, 5), std::make_tuple(1, 1, 2)',
    'std::make_tuple(1, 1, 2)',
  ),
  param(
    'GoogleTest instantiation removed',
    'INSTANTIATE_TEST_SUITE_P(Small, AddTest,\n                         ::testing::Values(std::make_tuple(2, 3, 5), std::make_tuple(1, 1, 2)));\n',
    '',
  ),
  cc('range-for case array loses its failing row', '{{2, 3, 5}, {1, 1, 2}}', '{{1, 1, 2}}'),
  // constant branches that are not literals
  py('assert in the else of if 1 > 0', A, '    if 1 > 0:\n        pass\n    else:\n    ' + A),
  py('assert in the else of if not []', A, '    if not []:\n        pass\n    else:\n    ' + A),
  py('assert under if DEBUG, a module constant False', A, '    if DEBUG:\n    ' + A),
  py(
    'assert in a loop over a constant that is empty',
    'DEBUG = False\n',
    'DEBUG = False\nNONE = ()\n',
    A,
    '    for _ in NONE:\n    ' + A,
  ),
  js('expect in the else of if (1 > 0)', E, '  if (1 > 0) {\n  } else {\n  ' + E + '  }\n'),
  js('expect under if (DEBUG), a top-level const false', E, '  if (DEBUG) {\n  ' + E + '  }\n'),
  cc('EXPECT in the else of if (1 > 0)', G, '  if (1 > 0) {\n  } else {\n  ' + G + '  }\n'),
  cc('EXPECT under if (kVerbose), a constexpr false', G, '  if (kVerbose) {\n  ' + G + '  }\n'),
  // functions that hold the assertion and never run
  js('expect in a loop over an empty array', E, '  for (const _ of []) {\n  ' + E + '  }\n'),
  js('expect in an arrow function never called', E, '  const f = () => {\n  ' + E + '  };\n'),
  cc('EXPECT in a lambda never called', G, '  auto f = [&] { EXPECT_EQ(add(2, 3), 5); };\n'),
  cc('EXPECT in a lambda only cast to void', G, '  auto f = [&] { EXPECT_EQ(add(2, 3), 5); };\n  (void)f;\n'),
  js('expect in an arrow function only voided', E, '  const f = () => {\n  ' + E + '  };\n  void f;\n'),
  py('assert in a nested function deleted unrun', A, '    def f():\n    ' + A + '    del f\n'),
];

/** @type {Case[]} */
export const LEGITIMATE = [
  he('HumanEval check expected value changed', '== 5', '== 6'),
  he('HumanEval check gains an assertion', CHECKS, CHECKS + '    assert candidate(-1, 1) == 0\n'),
  he(
    'HumanEval check called on one more function',
    '    check(add)\n',
    '    check(add)\n    check(lambda a, b: add(b, a))\n',
  ),
  edit('conftest helper expected value changed', 'tests/conftest.py', CONFTEST, '== 5', '== 6'),
  edit(
    'test-utility helper gains an assertion',
    'tests/helpers.py',
    HELPERS,
    '    assert add(-1, 1) == 0\n',
    '    assert add(-1, 1) == 0\n    assert add(0, 0) == 0\n',
  ),
  ut(
    'a setUp that prepares the test',
    '    def _check',
    '    def setUp(self):\n        self.base = 0\n\n    def _check',
  ),
  ut(
    'unittest helper called with a corrected expected value',
    'self._check(2, 3, 5)',
    'self._check(2, 3, 6)',
  ),
  js('JS helper expected value changed', 'expect(f(2, 3)).toBe(5);', 'expect(f(2, 3)).toBe(6);'),
  fixture(
    'GoogleTest fixture SetUp sets up more',
    '{ base_ = 0; }',
    '{ base_ = 0; ASSERT_EQ(add(0, 0), 0); }',
  ),
  cc('GoogleTest helper expected value changed', 'EXPECT_EQ(f(2, 3), 5);', 'EXPECT_EQ(f(2, 3), 6);'),
  py('the result kept in a local variable', A, '    result = add(2, 3)\n    assert result == 5\n'),
  py(
    'the expected value kept in a local variable',
    A,
    '    expected = 5\n    assert add(2, 3) == expected\n',
  ),
  js('the result kept in a local const', E, '  const r = add(2, 3);\n  expect(r).toBe(5);\n'),
  cc('the result kept in a local auto', G, '  auto r = add(2, 3);\n  EXPECT_EQ(r, 5);\n'),
  [
    'the local the assert reads set up with other arguments',
    'tests/test_calc.py',
    sub('local', PY, A, LOCAL),
    sub('local', PY, A, LOCAL.replace('add(2, 3)', 'add(3, 2)')),
  ],
  edit(
    'a needless call of a test-support factory removed',
    'tests/test_local.py',
    PY_LOCAL_CASES,
    '    make_pair()\n    assert',
    '    assert',
  ),
  rows('module case list row corrected', '(1, 1, 2), (0, 0, 0)]', '(1, 1, 3), (0, 0, 0)]'),
  rows('module case list gains a row', '(0, 0, 0)]', '(0, 0, 0), (5, 5, 10)]'),
  rows('parametrize row corrected', '[(2, 3, 5), (1, 1, 2)])', '[(2, 3, 6), (1, 1, 2)])'),
  rows(
    'loop over the case list rewritten as parametrize',
    'def test_table():\n    for a, b, want in CASES:\n        assert add(a, b) == want\n',
    '@pytest.mark.parametrize("a,b,want", CASES)\ndef test_table(a, b, want):\n    assert add(a, b) == want\n',
  ),
  rows(
    'loop over the case list unpacks in its body',
    '    for a, b, want in CASES:\n        assert add(a, b) == want\n',
    '    for case in CASES:\n        a, b, want = case\n        assert add(a, b) == want\n',
  ),
  each('test.each row corrected', '  [1, 1, 2],\n])', '  [1, 1, 3],\n])'),
  each(
    'for...of loop rewritten as forEach over the same list',
    '  for (const [a, b, want] of CASES) {\n    expect(calc.add(a, b)).toBe(want);\n  }\n',
    '  CASES.forEach(([a, b, want]) => {\n    expect(calc.add(a, b)).toBe(want);\n  });\n',
  ),
  param('GoogleTest parameter row corrected', 'std::make_tuple(2, 3, 5)', 'std::make_tuple(2, 3, 6)'),
  cc('range-for case array gains a row', '{{2, 3, 5}, {1, 1, 2}}', '{{2, 3, 5}, {1, 1, 2}, {0, 0, 0}}'),
  py(
    'an assert in a loop over a local list filled before it',
    A,
    '    seen = []\n    seen.append(1)\n    for _ in seen:\n    ' + A,
  ),
  py(
    'a setattr of an unrelated module',
    'def test_add():\n',
    'def test_add():\n    import os\n    setattr(os, "environ_" + "x", 1)\n',
  ),
  js('expect in an arrow function that is called', E, '  const f = () => {\n  ' + E + '  };\n  f();\n'),
  cc('EXPECT in a lambda that is called', G, '  auto f = [&] { EXPECT_EQ(add(2, 3), 5); };\n  f();\n'),
];

export const EXPECTATION_CHANGES = new Set([
  'HumanEval check expected value changed',
  'conftest helper expected value changed',
  'unittest helper called with a corrected expected value',
  'JS helper expected value changed',
  'GoogleTest helper expected value changed',
  'module case list row corrected',
  'parametrize row corrected',
  'test.each row corrected',
  'GoogleTest parameter row corrected',
]);
