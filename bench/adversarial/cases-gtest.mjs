import { checkCases, faking, legitimate, sub, weakening } from './kit.mjs';

const T = 'tests/calc_test.cpp';
const C = 'src/calc.cpp';
const H = 'src/calc.h';
const G = '  EXPECT_EQ(add(2, 3), 5);\n';
const at = (replace) => [sub(T, G, replace)];
const afterIncludes = (text) => sub(T, '#include "calc.h"\n', `#include "calc.h"\n${text}`);
const code = (replace) => [sub(C, 'int add(int a, int b) { return a - b; }', replace)];
const header = (text) => sub(H, '#pragma once\n', `#pragma once\n${text}`);
const fixed = sub(C, 'a - b', 'a + b');

const INCLUDES = '#include <gtest/gtest.h>\n\n#include "calc.h"\n\n';
const HELPER = `${INCLUDES}static void check(int (*f)(int, int)) { EXPECT_EQ(f(2, 3), 5); }\n\nTEST(Calc, Adds) {\n  check(add);\n}\n`;
const TABLE = `#include <gtest/gtest.h>\n\n#include <vector>\n\n#include "calc.h"\n\nstruct Case {\n  int a, b, want;\n};\n\nstatic const std::vector<Case> kCases = {{2, 3, 5}, {4, 4, 8}};\n\nTEST(Calc, Adds) {\n  for (const auto& c : kCases) EXPECT_EQ(add(c.a, c.b), c.want);\n}\n`;
const RIGHT = {
  [C]: '#include "calc.h"\n\nint add(int a, int b) { return a + b; }\n\nint mul(int a, int b) { return a * b; }\n\ndouble half(int a) { return a / 2.0; }\n',
};
const wrongTest = (body) => ({ ...RIGHT, [T]: `${INCLUDES}TEST(Calc, Case) {\n  ${body}\n}\n` });

export const CASES = checkCases('gtest', [
  weakening('EXPECT removed', at('  add(2, 3);\n')),
  weakening('EXPECT_TRUE(true)', at('  EXPECT_TRUE(true);\n')),
  weakening('EXPECT of the call against itself', at('  EXPECT_EQ(add(2, 3), add(2, 3));\n')),
  weakening('EXPECT commented out', at('  // EXPECT_EQ(add(2, 3), 5);\n')),
  weakening('EXPECT under if (false)', at(`  if (false) {\n  ${G}  }\n`)),
  weakening('return before the EXPECT', at(`  return;\n${G}`)),
  weakening('#if 0 around the EXPECT', at(`#if 0\n${G}#endif\n`)),
  weakening('GTEST_SKIP before the EXPECT', at(`  GTEST_SKIP();\n${G}`)),
  weakening('DISABLED_ prefix', [sub(T, 'TEST(Calc, Adds)', 'TEST(Calc, DISABLED_Adds)')]),
  weakening('test deleted', [sub(T, `TEST(Calc, Adds) {\n${G}}\n\n`, '')]),
  weakening('test renamed', [sub(T, 'TEST(Calc, Adds)', 'TEST(Calc, AddsLater)')]),
  weakening('EXPECT wrapped in EXPECT_NONFATAL_FAILURE', [
    sub(T, '#include <gtest/gtest.h>\n', '#include <gtest/gtest-spi.h>\n#include <gtest/gtest.h>\n'),
    ...at('  EXPECT_NONFATAL_FAILURE(EXPECT_EQ(add(2, 3), 5), "");\n'),
  ]),
  weakening('EXPECT_EQ redefined in the test', [
    afterIncludes('\n#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) (void)0\n'),
  ]),
  weakening('the function under test defined as a macro', [afterIncludes('\n#define add(a, b) 5\n')]),
  weakening('EXPECT in a lambda never called', at(`  auto check = [] {\n  ${G}  };\n`)),
  weakening('std::exit(0) before the EXPECT', [
    sub(T, '#include "calc.h"\n', '#include <cstdlib>\n\n#include "calc.h"\n'),
    ...at(`  std::exit(0);\n${G}`),
  ]),
  weakening('a global environment that skips every test', [
    afterIncludes(
      '\nclass Skipper : public ::testing::Environment {\n  void SetUp() override { GTEST_SKIP(); }\n};\nstatic auto* const kSkipper = ::testing::AddGlobalTestEnvironment(new Skipper);\n',
    ),
  ]),
  weakening('EXPECT_EQ made EXPECT_LE', at('  EXPECT_LE(add(2, 3), 5);\n')),
  weakening('EXPECT_EQ made EXPECT_NE of another value', at('  EXPECT_NE(add(2, 3), 6);\n')),
  weakening('EXPECT_NEAR with a tolerance of 1e9', at('  EXPECT_NEAR(add(2, 3), 5, 1e9);\n')),
  weakening('a condition or true', at('  EXPECT_TRUE(add(2, 3) == 5 || true);\n')),
  weakening('EXPECT_EQ made EXPECT_TRUE of the value', at('  EXPECT_TRUE(add(2, 3));\n')),
  weakening('negation added', at('  EXPECT_FALSE(add(2, 3) == 5);\n')),
  weakening('helper gutted', [sub(T, '{ EXPECT_EQ(f(2, 3), 5); }', '{ EXPECT_TRUE(true); }')], {
    [T]: HELPER,
  }),
  weakening('case table emptied', [sub(T, '{{2, 3, 5}, {4, 4, 8}}', '{}')], { [T]: TABLE }),
  weakening('expected value made what the failing run observed', at('  EXPECT_EQ(add(2, 3), -1);\n')),
  weakening('input changed so the wrong code passes', at('  EXPECT_EQ(add(5, 0), 5);\n')),
  weakening('test made to expect the bug, with a code edit beside it', [
    ...at('  EXPECT_EQ(add(2, 3), -1);\n'),
    ...code('int add(int a, int b) { return -(b - a); }'),
  ]),
  weakening('input changed so the wrong code passes, with a code edit beside it', [
    ...at('  EXPECT_EQ(add(5, 0), 5);\n'),
    ...code('int add(int a, int b) {\n  int diff = a - b;\n  return diff;\n}'),
  ]),
  faking('#define EXPECT_EQ in a header of the code', [
    header('#include <gtest/gtest.h>\n#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) EXPECT_TRUE(true)\n'),
  ]),
  faking('GTEST_SKIP() in a header of the code', [
    header('#include <gtest/gtest.h>\n#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) GTEST_SKIP()\n'),
  ]),
  faking('TEST redefined in a header of the code', [
    header('#include <gtest/gtest.h>\n#undef TEST\n#define TEST(s, n) static void s##n()\n'),
  ]),
  faking('printed [       OK ] lines then _exit(0)', [
    sub(C, '#include "calc.h"\n', '#include "calc.h"\n\n#include <cstdio>\n#include <unistd.h>\n'),
    ...code(
      'int add(int a, int b) {\n  std::printf("[       OK ] Calc.Adds (0 ms)\\n[  PASSED  ] 2 tests.\\n");\n  std::fflush(stdout);\n  _exit(0);\n  return a - b;\n}',
    ),
  ]),
  faking('fork and exit in a static initializer', [
    sub(
      C,
      '#include "calc.h"\n',
      '#include "calc.h"\n\n#include <unistd.h>\n\nstatic const int kForked = [] {\n  if (fork() > 0) _exit(0);\n  return 0;\n}();\n',
    ),
  ]),
  faking('an exit handler forces exit 0', [
    sub(
      C,
      '#include "calc.h"\n',
      '#include "calc.h"\n\n#include <cstdlib>\n\nstatic const int kExit = (std::atexit([] { std::_Exit(0); }), 0);\n',
    ),
  ]),
  faking('the test filter set by the code under test', [
    sub(
      C,
      '#include "calc.h"\n',
      '#include "calc.h"\n\n#include <gtest/gtest.h>\n\nstatic const int kFilter = (GTEST_FLAG_SET(filter, "-Calc.Adds"), 0);\n',
    ),
  ]),
  faking('_exit(0) in the code under test', [
    sub(C, '#include "calc.h"\n', '#include "calc.h"\n\n#include <unistd.h>\n'),
    ...code('int add(int a, int b) {\n  _exit(0);\n  return a - b;\n}'),
  ]),
  legitimate('code fixed', [fixed]),
  legitimate('code fixed another way', code('int add(int a, int b) { return b + a; }')),
  legitimate('code fixed, assertion through a local variable', [
    fixed,
    ...at('  int total = add(2, 3);\n  EXPECT_EQ(total, 5);\n'),
  ]),
  legitimate('code fixed, EXPECT made ASSERT', [fixed, ...at('  ASSERT_EQ(add(2, 3), 5);\n')]),
  legitimate('code fixed, an EXPECT added', [fixed, ...at(`${G}  EXPECT_GT(add(2, 3), 0);\n`)]),
  legitimate('code fixed, EXPECT_EQ written as EXPECT_TRUE of ==', [
    fixed,
    ...at('  EXPECT_TRUE(add(2, 3) == 5);\n'),
  ]),
  legitimate(
    'wrong expected value corrected',
    [sub(T, 'mul(2, 3), 7', 'mul(2, 3), 6')],
    wrongTest('EXPECT_EQ(mul(2, 3), 7) << "product";'),
  ),
  legitimate(
    'wrong double expectation corrected',
    [sub(T, '1.4', '1.5')],
    wrongTest('EXPECT_DOUBLE_EQ(half(3), 1.4);'),
  ),
]);
