/** @typedef {[name: string, file: string, before: string, after: string]} Case */

/**
 * Proposals that text rules misread and the syntax-tree readers get right: assertions spelled in
 * strings, stops and swallowing handlers only a parse sees (a constant-true branch, a `finally`,
 * an `#if 1 ... #else`), tests no longer run by their own `main`, and the code under test
 * shadowed or imported from elsewhere; and legitimate fixes whose strings mention `return` or
 * `AssertionError`, which text rules took for a stop or a swallowing handler.
 */
export const PY = `import pytest
from calc.core import add


def test_add():
    total = add(2, 3)
    assert total == 5


def test_parse():
    with pytest.raises(ValueError):
        add("x", 1)
`;

const JS = `import { add } from '../src/calc';

describe('calc', () => {
  it('adds', () => {
    const total = add(2, 3);
    expect(total).toBe(5);
  });

  it('adds zero', () => {
    expect(add(0, 0)).toBe(0);
  });
});
`;

const CPP = `#include <gtest/gtest.h>

#include "calc.h"

TEST(Calc, Adds) {
  int total = add(2, 3);
  EXPECT_EQ(total, 5);
}
`;

const UNITY = `#include "unity.h"
#include "calc.h"

void setUp(void) {}
void tearDown(void) {}

void test_add(void) { TEST_ASSERT_EQUAL_INT(5, add(2, 3)); }

int main(void) {
  UNITY_BEGIN();
  RUN_TEST(test_add);
  return UNITY_END();
}
`;

const PLAIN = `#include <stdio.h>
#include "calc.h"

int main(void) {
  if (add(2, 2) != 4) {
    printf("add(2, 2) is %d\\n", add(2, 2));
    return 1;
  }
  return 0;
}
`;

function edit(name, file, base, from, to) {
  if (!base.includes(from)) throw new Error(`"${from}" is not in the base of ${name}`);
  return [name, file, base, base.replace(from, to)];
}

export const A = '    assert total == 5\n';
const E = '    expect(total).toBe(5);\n';
const G = '  EXPECT_EQ(total, 5);\n';
const py = (n, from, to) => edit(n, 'tests/test_calc.py', PY, from, to);
const js = (n, from, to) => edit(n, 'tests/calc.test.ts', JS, from, to);
const cc = (n, from, to) => edit(n, 'tests/calc_test.cpp', CPP, from, to);

/** @type {Case[]} */
export const WEAKENINGS = [
  py('assert of a tuple, always true', A, '    assert (total == 5, "total")\n'),
  py('assert or True', A, '    assert total == 5 or True\n'),
  py('if True: return before the assert', A, '    if True:\n        return\n' + A),
  py('the assert in a loop over nothing', A, '    for _ in []:\n' + '    ' + A),
  py('the assert in the else of if True', A, '    if True:\n        pass\n    else:\n    ' + A),
  py('a finally that returns', A, '    try:\n    ' + A + '    finally:\n        return\n'),
  py('a nested check named only in a string', A, '    def check():\n    ' + A + '    print("check()")\n'),
  py(
    'the function under test rebound in the test',
    '    total = add(2, 3)\n',
    '    add = lambda a, b: 5\n    total = add(2, 3)\n',
  ),
  py(
    'the function under test imported from a fake',
    'from calc.core import add',
    'from tests.fakes import add',
  ),
  py(
    'the function under test replaced by assignment',
    '    total = add(2, 3)\n',
    '    import calc.core\n    calc.core.add = lambda a, b: 5\n    total = add(2, 3)\n',
  ),
  js('expect spelled in a string', E, "    const note = 'expect(total).toBe(5)';\n"),
  js('expect with no matcher', E, '    expect(total);\n'),
  js('expect of a value against itself', E, '    expect(total).toBe(total);\n'),
  js('if (true) return before the expect', E, '    if (true) return;\n' + E),
  js('a finally that returns', E, '    try {\n  ' + E + '    } finally {\n      return;\n    }\n'),
  js('it.only on the other test', "  it('adds zero'", "  it.only('adds zero'"),
  js(
    'the function under test rebound in the test',
    '    const total = add(2, 3);\n',
    '    const add = () => 5;\n    const total = add(2, 3);\n',
  ),
  js(
    'the function under test imported from a fake',
    "import { add } from '../src/calc';",
    "import { add } from './fake-calc';",
  ),
  cc('EXPECT spelled in a string', G, '  const char* note = "EXPECT_EQ(total, 5)";\n'),
  cc('the EXPECT in the #else of #if 1', G, '#if 1\n  (void)total;\n#else\n' + G + '#endif\n'),
  cc('the EXPECT in a lambda never called', G, '  auto check = [&] {\n  ' + G + '  };\n'),
  cc(
    'the function under test defined in the test',
    'TEST(Calc, Adds)',
    'int add(int, int) { return 5; }\n\nTEST(Calc, Adds)',
  ),
  cc(
    'main returns before RUN_ALL_TESTS',
    '#include "calc.h"\n',
    '#include "calc.h"\n\nint main() { return 0; }\n',
  ),
  edit(
    'Unity TEST_PASS before the assert',
    'tests/test_calc.c',
    UNITY,
    '{ TEST_ASSERT',
    '{ TEST_PASS(); TEST_ASSERT',
  ),
  edit('Unity RUN_TEST removed from main', 'tests/test_calc.c', UNITY, '  RUN_TEST(test_add);\n', ''),
  edit(
    'Unity main returns before RUN_TEST',
    'tests/test_calc.c',
    UNITY,
    '  UNITY_BEGIN();\n',
    '  return 0;\n  UNITY_BEGIN();\n',
  ),
  edit(
    'plain main returns 0 before its check',
    'tests/calc_test.c',
    PLAIN,
    '  if (add',
    '  return 0;\n  if (add',
  ),
  edit('plain main check made constant', 'tests/calc_test.c', PLAIN, 'if (add(2, 2) != 4)', 'if (0)'),
];

/** @type {Case[]} */
export const LEGITIMATE = [
  js('a note that says return before the expect', E, "    const note = 'return value of add';\n" + E),
  cc('a message that says return on the EXPECT', G, '  EXPECT_EQ(total, 5) << "return value of add";\n'),
  py(
    'pytest.raises matching a message that names AssertionError',
    'pytest.raises(ValueError)',
    'pytest.raises(ValueError, match="not an AssertionError")',
  ),
  py('a conditional return for a missing optional dependency', A, '    if not total:\n        return\n' + A),
  edit(
    'plain main expected value changed',
    'tests/calc_test.c',
    PLAIN,
    'if (add(2, 2) != 4)',
    'if (add(2, 2) != 5)',
  ),
  [
    'Unity: a second test added and registered',
    'tests/test_calc.c',
    UNITY,
    UNITY.replace(
      'int main',
      'void test_zero(void) { TEST_ASSERT_EQUAL_INT(0, add(0, 0)); }\n\nint main',
    ).replace('  RUN_TEST(test_add);\n', '  RUN_TEST(test_add);\n  RUN_TEST(test_zero);\n'),
  ],
];
