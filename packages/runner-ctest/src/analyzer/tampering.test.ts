import { describe, expect, it } from 'vitest';
import { createCppCache } from './cpp-model.js';
import { cppTampering } from './tampering.js';

const cache = createCppCache(4);
const check = (file: string, before: string | undefined, after: string): string | undefined =>
  cppTampering((source) => cache.parseText(source).tree, file, before, after);

const CALC = '#include "calc.h"\n\nint add(int a, int b) {\n  return a - b;\n}\n';
/** calc.cpp with `body` in place of add's return, and `top` above it. */
const calcWith = (body: string, top = ''): string =>
  `#include "calc.h"\n${top}\nint add(int a, int b) {\n${body}\n  return a + b;\n}\n`;
const HEADER = '#pragma once\n\nint add(int a, int b);\n';

describe('cppTampering: what an edit to code under test may not add', () => {
  it.each([
    [
      'OK lines printed, then _exit(0)',
      calcWith(
        '  std::printf("[       OK ] Calc.Adds (0 ms)\\n[  PASSED  ] 2 tests.\\n");\n  _exit(0);',
        '#include <cstdio>\n#include <unistd.h>',
      ),
      /^line 5 adds "\[ {7}OK \] Calc\.Adds \(0 ms\)\\n\[ {2}PASSED {2}\] 2 tests\.\\n", printed text that reads as a test result \(and 1 more\)/,
    ],
    ['std::exit', calcWith('  std::exit(0);'), /exit\(\), which ends the test program/],
    ['::quick_exit', calcWith('  ::quick_exit(0);'), /quick_exit\(\)/],
    ['_Exit', calcWith('  _Exit(0);'), /_Exit\(\)/],
    [
      'the exit system call',
      calcWith('  syscall(SYS_exit_group, 0);'),
      /_exit\(\), which ends the test program/,
    ],
    ['fork', calcWith('  if (fork() > 0) return 5;'), /fork\(\), a second process/],
    [
      'atexit',
      calcWith('  std::atexit([] { std::puts("ok"); });'),
      /atexit\(\), a handler that runs when the test program ends/,
    ],
    ['at_quick_exit', calcWith('  at_quick_exit(done);'), /at_quick_exit\(\)/],
    ['std::set_terminate', calcWith('  std::set_terminate([] { _exit(0); });'), /set_terminate\(\)/],
    [
      'GTEST_SKIP from code under test',
      calcWith('  GTEST_SKIP() << "later";'),
      /GTEST_SKIP\(\), a skip of the running test/,
    ],
    [
      'an included gtest header',
      calcWith('', '#include <gtest/gtest.h>'),
      /`#include <gtest\/gtest\.h>`, the test framework included/,
    ],
    ['an included gmock header', calcWith('', '#include "gmock/gmock.h"'), /gmock/],
    ['an included unity header', calcWith('', '#include "unity.h"'), /unity\.h/],
    [
      "GoogleTest's own objects",
      calcWith('  if (::testing::UnitTest::GetInstance()->failed_test_count() > 0) return 5;'),
      /GoogleTest's own objects reached from code under test/,
    ],
    ['a Unity PASS line', calcWith('  puts("test_calc.c:12:test_add:PASS");'), /reads as a test result/],
    [
      'a raw string result line',
      calcWith('  std::cout << R"([  PASSED  ] 1 test.)";'),
      /reads as a test result/,
    ],
    [
      'a macro that exits',
      calcWith('', '#define DONE() do { _exit(0); } while (0)'),
      /_exit\(\), which ends/,
    ],
  ])('refuses %s in a source file', (_name, after, reason) => {
    expect(check('src/calc.cpp', CALC, after)).toMatch(reason);
  });

  it.each([
    [
      '#define EXPECT_EQ(a, b) EXPECT_TRUE(true)',
      /^line 2 adds `#define EXPECT_EQ`, a redefinition of a test macro/,
    ],
    ['#define ASSERT_TRUE(x) (void)0', /`#define ASSERT_TRUE`/],
    [
      '#undef EXPECT_EQ\n#define EXPECT_EQ(a, b) (void)0',
      /`#undef EXPECT_EQ`, a test macro taken away \(and 1 more\)/,
    ],
    ['#define TEST(a, b) void a##b()', /`#define TEST`/],
    ['#define TEST_ASSERT_EQUAL(a, b) (void)0', /`#define TEST_ASSERT_EQUAL`/],
    ['#define FAIL() SUCCEED()', /`#define FAIL`/],
    ['#define add(a, b) GTEST_SKIP()', /GTEST_SKIP\(\), a skip of the running test/],
  ])('refuses `%s` in a header of the code under test', (line, reason) => {
    expect(check('src/calc.h', HEADER, HEADER.replace('#pragma once\n', `#pragma once\n${line}\n`))).toMatch(
      reason,
    );
  });

  it('refuses a framework macro redefined, an exit and a skip in a test file too', () => {
    const test =
      '#include <gtest/gtest.h>\n#include "calc.h"\n\nTEST(Calc, Adds) { EXPECT_EQ(add(2, 3), 5); }\n';
    expect(
      check(
        'tests/calc_test.cpp',
        test,
        test.replace('"calc.h"\n', '"calc.h"\n#define EXPECT_EQ(a, b) (void)0\n'),
      ),
    ).toMatch(/`#define EXPECT_EQ`/);
    expect(
      check('tests/calc_test.cpp', test, test.replace('{ EXPECT_EQ', '{ GTEST_SKIP(); EXPECT_EQ')),
    ).toMatch(/GTEST_SKIP/);
    expect(
      check('tests/calc_test.cpp', test, test.replace('{ EXPECT_EQ', '{ std::_Exit(0); EXPECT_EQ')),
    ).toMatch(/_Exit\(\)/);
  });

  it('refuses the same in a new file, all of which is added', () => {
    expect(check('src/shim.h', undefined, '#pragma once\n#define EXPECT_EQ(a, b) (void)0\n')).toMatch(
      /^line 2 adds `#define EXPECT_EQ`/,
    );
  });
});

describe('cppTampering: near misses that pass', () => {
  it.each([
    ['a comment mentioning _exit', calcWith('  // never call _exit(0) here: it hides failures')],
    ['a block comment with an OK line', calcWith('  /* [       OK ] is what GoogleTest prints */')],
    ['a string mentioning exit', calcWith('  const char* why = "exit(0) and fork() are refused";')],
    ['a member named exit', calcWith('  loop.exit(0);\n  pool->fork();')],
    ['another namespace’s exit', calcWith('  app::exit(0);')],
    ['a plain fix', '#include "calc.h"\n\nint add(int a, int b) {\n  return a + b;\n}\n'],
    ['a macro of its own', calcWith('', '#define CALC_MAX 100\n#define CHECK_RANGE(x) ((x) < CALC_MAX)')],
    ['a log line of its own', calcWith('  std::printf("add(%d, %d) ok\\n", a, b);')],
  ])('passes %s', (_name, after) => {
    expect(check('src/calc.cpp', CALC, after)).toBeUndefined();
  });

  it('passes an unrelated fix to code that already forks and exits, as a process library does', () => {
    const spawn = [
      '#include <unistd.h>',
      '',
      'int spawn(const char* path) {',
      '  pid_t pid = fork();',
      '  if (pid == 0) {',
      '    execl(path, path, nullptr);',
      '    _exit(127);',
      '  }',
      '  return pid;',
      '}',
      '',
      'int size(int n) { return n - 1; }',
      '',
    ].join('\n');
    expect(check('src/spawn.cpp', spawn, spawn.replace('n - 1', 'n'))).toBeUndefined();
    expect(check('src/spawn.cpp', spawn, spawn.replace('return n - 1;', 'fork(); return n;'))).toMatch(
      /line 12 adds fork\(\)/,
    );
  });

  it('passes a new exit in main, where a program exits, and a test file that includes GoogleTest', () => {
    const main = '#include <cstdlib>\n\nint main(int argc, char** argv) {\n  return 0;\n}\n';
    expect(
      check('src/main.cpp', main, main.replace('return 0;', 'if (argc < 2) std::exit(2);\n  return 0;')),
    ).toBeUndefined();
    expect(
      check(
        'tests/extra_test.cpp',
        undefined,
        '#include <gtest/gtest.h>\n\nTEST(Extra, One) { EXPECT_EQ(1, 1); }\n',
      ),
    ).toBeUndefined();
  });

  it('passes a test helper macro of its own in a test file, and reads only C and C++ files', () => {
    const test = '#include <gtest/gtest.h>\n\nTEST(Calc, Adds) { EXPECT_EQ(1, 1); }\n';
    expect(
      check('tests/calc_test.cpp', test, `#define EXPECT_SUM(a, b, s) EXPECT_EQ(add(a, b), s)\n${test}`),
    ).toBeUndefined();
    expect(check('CMakeLists.txt', '', '#define EXPECT_EQ(a, b) (void)0\n')).toBeUndefined();
  });
});
