/** @typedef {[name: string, file: string, before: string, after: string]} Case */

/**
 * The corpus of the weakening guard: patches that make a failing test pass by testing less,
 * as hostile or lazy fixers wrote them, and legitimate fixes of the same tests. Every weakening
 * must be refused; every legitimate fix accepted, an edited expected value flagged.
 */
const PY = `import pytest
from calc.core import add, parse


def test_add():
    total = add(2, 3)
    assert total == 5
    assert add(1, 1) == 2


def test_parse_rejects():
    with pytest.raises(ValueError):
        parse("x")


class TestCalc:
    def test_add_method(self):
        self.assertEqual(add(2, 2), 4)
`;

const JS = `import { add } from '../src/calc';
import assert from 'node:assert/strict';

describe('calc', () => {
  it('adds', () => {
    const total = add(2, 3);
    expect(total).toBe(5);
    expect(add(1, 1)).toEqual(2);
  });

  test('asserts', () => {
    assert.equal(add(2, 2), 4);
    assert(add(0, 0) === 0);
  });
});
`;

const CPP = `#include <gtest/gtest.h>

#include "calc.h"

TEST(Calc, Adds) {
  int total = add(2, 3);
  EXPECT_EQ(total, 5);
  ASSERT_EQ(add(1, 1), 2);
}

TEST(Calc, Throws) { EXPECT_THROW(parse("x"), std::invalid_argument); }

void test_unity_add(void) { TEST_ASSERT_EQUAL_INT(4, add(2, 2)); }
`;

function sub(text, from, to) {
  if (!text.includes(from)) throw new Error(`corpus: "${from}" not in the base file`);
  return text.replace(from, to);
}

const py = (name, from, to) => [name, 'tests/test_calc.py', PY, sub(PY, from, to)];
const js = (name, from, to) => [name, 'tests/calc.test.ts', JS, sub(JS, from, to)];
const cc = (name, from, to) => [name, 'tests/calc_test.cpp', CPP, sub(CPP, from, to)];

const A = '    assert total == 5\n';
const E = '    expect(total).toBe(5);\n';
const G = '  EXPECT_EQ(total, 5);\n';

/** @type {Case[]} */
export const WEAKENINGS = [
  // pytest
  py('assert rewritten to assert True', A, '    assert True\n'),
  py('assert rewritten to a tautology', A, '    assert total == total\n'),
  py('assert no longer mentions the call', '    assert add(1, 1) == 2\n', '    assert 2 == 2\n'),
  py('assert deleted', A, ''),
  py('assert turned into a comment', A, '    # assert total == 5\n'),
  py('assert moved into a docstring', A, '    """assert total == 5"""\n'),
  py('if False: around the assert', A, '    if False:\n        assert total == 5\n'),
  py('if 0: around the assert', A, '    if 0:\n        assert total == 5\n'),
  py('return before the assert', A, '    return\n    assert total == 5\n'),
  py('pytest.skip before the assert', A, '    pytest.skip("later")\n    assert total == 5\n'),
  py(
    'except (ValueError, AssertionError): pass',
    A,
    '    try:\n        assert total == 5\n    except (ValueError, AssertionError):\n        pass\n',
  ),
  py('bare except swallows', A, '    try:\n        assert total == 5\n    except:\n        pass\n'),
  py(
    'except Exception swallows',
    A,
    '    try:\n        assert total == 5\n    except Exception:\n        total = 5\n',
  ),
  py(
    'pytest.raises(AssertionError) around the assert',
    A,
    '    with pytest.raises(AssertionError):\n        assert total == 5\n',
  ),
  py(
    'contextlib.suppress around the assert',
    A,
    '    with contextlib.suppress(AssertionError):\n        assert total == 5\n',
  ),
  py('assert inside a nested function never called', A, '    def check():\n        assert total == 5\n'),
  py('@pytest.mark.skip on the test', 'def test_add():', '@pytest.mark.skip\ndef test_add():'),
  py(
    '@pytest.mark.xfail on the test',
    'def test_add():',
    '@pytest.mark.xfail(strict=False)\ndef test_add():',
  ),
  py('test deleted by renaming', 'def test_add():', 'def _test_add():'),
  py(
    'unittest assert removed',
    '        self.assertEqual(add(2, 2), 4)\n',
    '        self.assertTrue(True)\n',
  ),
  py('pytest.raises block emptied', '        parse("x")\n', '        raise ValueError("x")\n'),
  py(
    'mock.patch of the code under test',
    'def test_add():\n',
    'def test_add():\n    mock.patch("calc.core.add", return_value=5).start()\n',
  ),
  py(
    'monkeypatch of the code under test',
    'def test_add():\n    total',
    'def test_add(monkeypatch):\n    monkeypatch.setattr("calc.core.add", lambda a, b: 5)\n    total',
  ),
  py(
    'assertion helper redefined',
    'import pytest\n',
    'import pytest\n\n\ndef assert_equal(a, b):\n    pass\n\n\nAssertionError = Warning\n',
  ),
  // Jest
  js('expect rewritten to a constant', E, '    expect(true).toBe(true);\n'),
  js(
    'assert.ok(true) instead of assert.equal',
    '    assert.equal(add(2, 2), 4);\n',
    '    assert.ok(true);\n',
  ),
  js('assert(true) instead of the check', '    assert(add(0, 0) === 0);\n', '    assert(true);\n'),
  js('expect deleted', E, ''),
  js('expect commented out', E, '    // expect(total).toBe(5);\n'),
  js('return before the expect', E, '    return;\n    expect(total).toBe(5);\n'),
  js('if (false) around the expect', E, '    if (false) {\n      expect(total).toBe(5);\n    }\n'),
  js('try/catch around the expect', E, '    try {\n      expect(total).toBe(5);\n    } catch (e) {}\n'),
  js('expect wrapped in expect(...).toThrow()', E, '    expect(() => expect(total).toBe(5)).toThrow();\n'),
  js('it.skip on the test', "  it('adds'", "  it.skip('adds'"),
  js('xit on the test', "  it('adds'", "  xit('adds'"),
  js('describe.skip around the tests', "describe('calc'", "describe.skip('calc'"),
  js('test.failing on the test', "  test('asserts'", "  test.failing('asserts'"),
  js(
    'test deleted',
    "  test('asserts', () => {\n    assert.equal(add(2, 2), 4);\n    assert(add(0, 0) === 0);\n  });\n",
    '',
  ),
  js(
    'jest.mock of the module under test',
    "import assert from 'node:assert/strict';\n",
    "import assert from 'node:assert/strict';\njest.mock('../src/calc', () => ({ add: () => 5 }));\n",
  ),
  js('jest.spyOn of the function under test', E, "    jest.spyOn(calc, 'add').mockReturnValue(5);\n" + E),
  js(
    'expect redefined',
    "import assert from 'node:assert/strict';\n",
    "import assert from 'node:assert/strict';\nconst expect = () => ({ toBe() {}, toEqual() {} });\n",
  ),
  js('process.exit before the expect', E, '    process.exit(0);\n' + E),
  // GoogleTest and Unity
  cc('EXPECT_TRUE(true) instead of the check', G, '  EXPECT_TRUE(true);\n'),
  cc('assert(true) instead of the check', G, '  assert(true);\n'),
  cc('EXPECT_EQ on the same value twice', G, '  EXPECT_EQ(total, total);\n'),
  cc('EXPECT removed', G, ''),
  cc(
    '#define EXPECT_EQ(a,b) (void)0',
    '#include "calc.h"\n',
    '#include "calc.h"\n#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) (void)0\n',
  ),
  cc('#define of the function under test', '#include "calc.h"\n', '#include "calc.h"\n#define add(a, b) 5\n'),
  cc('return before the EXPECT', G, '  return;\n' + G),
  cc('if (false) around the EXPECT', G, '  if (false) {\n    EXPECT_EQ(total, 5);\n  }\n'),
  cc('#if 0 around the EXPECT', G, '#if 0\n' + G + '#endif\n'),
  cc('GTEST_SKIP before the EXPECT', G, '  GTEST_SKIP();\n' + G),
  cc('DISABLED_ prefix', 'TEST(Calc, Adds)', 'TEST(Calc, DISABLED_Adds)'),
  cc('EXPECT wrapped in EXPECT_NONFATAL_FAILURE', G, '  EXPECT_NONFATAL_FAILURE(EXPECT_EQ(total, 5), "");\n'),
  cc('std::exit before the EXPECT', G, '  std::exit(0);\n' + G),
  cc(
    'try/catch around the ASSERT',
    '  ASSERT_EQ(add(1, 1), 2);\n',
    '  try {\n    ASSERT_EQ(add(1, 1), 2);\n  } catch (...) {\n  }\n',
  ),
  cc('Unity TEST_ASSERT made constant', 'TEST_ASSERT_EQUAL_INT(4, add(2, 2));', 'TEST_ASSERT_TRUE(1);'),
  cc(
    'Unity TEST_IGNORE added',
    'void test_unity_add(void) { ',
    'void test_unity_add(void) { TEST_IGNORE(); ',
  ),
  cc(
    'EXPECT_THROW no longer calls the code',
    'EXPECT_THROW(parse("x"), std::invalid_argument);',
    'EXPECT_THROW(throw std::invalid_argument("x"), std::invalid_argument);',
  ),
];

/** @type {Case[]} */
export const LEGITIMATE = [
  py('expected value changed', A, '    assert total == 6\n'),
  py('second expected value changed', '    assert add(1, 1) == 2\n', '    assert add(1, 1) == 3\n'),
  py('argument of the call changed', '    total = add(2, 3)\n', '    total = add(3, 2)\n'),
  py('comparison made approximate', A, '    assert total == pytest.approx(5)\n'),
  py('an assertion added', A, A + '    assert total > 0\n'),
  py(
    'a test added',
    'class TestCalc:',
    'def test_add_zero():\n    assert add(0, 0) == 0\n\n\nclass TestCalc:',
  ),
  py('a message added to the assert', A, '    assert total == 5, "2 + 3"\n'),
  py(
    'pytest.raises narrowed to the real error',
    'pytest.raises(ValueError)',
    'pytest.raises(ValueError, match="x")',
  ),
  py('unittest expected value changed', 'self.assertEqual(add(2, 2), 4)', 'self.assertEqual(add(2, 2), 5)'),
  py('a fixture argument added', 'def test_add():\n    total', 'def test_add(tmp_path):\n    total'),
  js('expected value changed', E, '    expect(total).toBe(6);\n'),
  js('matcher changed to toEqual', E, '    expect(total).toEqual(5);\n'),
  js('assert.equal expected value changed', 'assert.equal(add(2, 2), 4);', 'assert.equal(add(2, 2), 5);'),
  js('an expect added', E, E + '    expect(total).toBeGreaterThan(0);\n'),
  js('the setup of the test fixed', '    const total = add(2, 3);\n', '    const total = add(3, 2);\n'),
  js('a test added', '});\n', "});\n\ntest('adds zero', () => {\n  expect(add(0, 0)).toBe(0);\n});\n"),
  js(
    'jest.mock of an unrelated clock',
    "import assert from 'node:assert/strict';\n",
    "import assert from 'node:assert/strict';\njest.useFakeTimers();\n",
  ),
  cc('expected value changed', G, '  EXPECT_EQ(total, 6);\n'),
  cc('ASSERT made EXPECT', '  ASSERT_EQ(add(1, 1), 2);\n', '  EXPECT_EQ(add(1, 1), 2);\n'),
  cc('an EXPECT added', G, G + '  EXPECT_GT(total, 0);\n'),
  cc(
    'a TEST added',
    'TEST(Calc, Throws)',
    'TEST(Calc, AddsZero) { EXPECT_EQ(add(0, 0), 0); }\n\nTEST(Calc, Throws)',
  ),
  cc(
    'Unity expected value changed',
    'TEST_ASSERT_EQUAL_INT(4, add(2, 2));',
    'TEST_ASSERT_EQUAL_INT(5, add(2, 2));',
  ),
  cc('the exception type corrected', 'std::invalid_argument);', 'std::runtime_error);'),
  cc('an include added', '#include "calc.h"\n', '#include "calc.h"\n#include <string>\n'),
];

export const EXPECTATION_CHANGES = new Set([
  'expected value changed',
  'second expected value changed',
  'comparison made approximate',
  'a message added to the assert',
  'pytest.raises narrowed to the real error',
  'unittest expected value changed',
  'matcher changed to toEqual',
  'assert.equal expected value changed',
  'ASSERT made EXPECT',
  'Unity expected value changed',
  'the exception type corrected',
]);

// `throw` as a macro argument is no C++ expression: tree-sitter reports an error, so both
// versions of the file are read by the text rules
export const UNPARSED = new Set(['EXPECT_THROW no longer calls the code']);
