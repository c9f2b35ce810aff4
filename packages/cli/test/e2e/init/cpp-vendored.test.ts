import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, commitAll, readConfig, suture, workspace, writeTree } from './support.js';

afterAll(cleanup);

// GoogleTest's own sources, as Debian's libgtest-dev ships them: the tree projects vendor, with
// the Python scripts of its own test suite (googletest/test/*_test.py, googlemock/test/*.py).
const GOOGLETEST = '/usr/src/googletest';
const VENDORED = 'lib/googletest-1.12.1';

const CMAKE = `cmake_minimum_required(VERSION 3.16)
project(mylib CXX)
set(CMAKE_CXX_STANDARD 17)

option(MYLIB_BUILD_TESTS "Build the mylib tests" OFF)

add_library(mylib src/mylib.cpp)
target_include_directories(mylib PUBLIC include)

if(MYLIB_BUILD_TESTS)
  enable_testing()
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    add_subdirectory(${VENDORED} EXCLUDE_FROM_ALL)
    add_library(GTest::gtest_main ALIAS gtest_main)
  endif()
  add_executable(mylib_test test/mylib_test.cpp)
  target_link_libraries(mylib_test mylib GTest::gtest_main)
  include(GoogleTest)
  gtest_discover_tests(mylib_test)
endif()
`;

const FILES = {
  'CMakeLists.txt': CMAKE,
  'include/mylib.h': 'int add(int a, int b);\n',
  'src/mylib.cpp': '#include "mylib.h"\n\nint add(int a, int b) { return a + b; }\n',
  'test/mylib_test.cpp':
    '#include <gtest/gtest.h>\n#include "mylib.h"\n\nTEST(Add, Small) { EXPECT_EQ(add(2, 2), 4); }\nTEST(Add, Negative) { EXPECT_EQ(add(-2, 2), 0); }\n',
};

describe('suture init on a C++ repository with a vendored GoogleTest and tests behind an OFF option', () => {
  it('writes one ctest project that turns the option on, and suture run builds and runs its tests', async () => {
    const dir = await workspace();
    await writeTree(dir, FILES);
    await cp(GOOGLETEST, join(dir, VENDORED), { recursive: true });
    commitAll(dir);

    const init = await suture(['init'], dir);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    // the vendored tree holds pytest-style files and a CMakeLists that enables testing: not projects
    expect(init.stdout).toContain(`skipped 1 bundled GoogleTest tree: ${VENDORED}\n`);
    expect(init.stdout).toMatch(
      /the tests are behind MYLIB_BUILD_TESTS, OFF by default \(CMakeLists\.txt:5\), so CTest would run no test: configureArgs -DMYLIB_BUILD_TESTS=ON turns them on/,
    );
    const config = await readConfig(dir);
    expect(config.projects).toEqual([
      {
        name: expect.any(String),
        root: '.',
        runner: ['ctest', { configureArgs: ['-DMYLIB_BUILD_TESTS=ON'] }],
      },
    ]);

    const run = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      projects: Array<{ status: string; totals: { tests: number; passed: number } }>;
    };
    expect(report.projects.map((p) => [p.status, p.totals.tests, p.totals.passed])).toEqual([
      ['completed', 2, 2],
    ]);
  });

  it('without the argument, the same project runs no test: the option is what makes the run real', async () => {
    const dir = await workspace();
    await writeTree(dir, FILES);
    await writeTree(dir, {
      'suture.config.json': JSON.stringify({ projects: [{ name: 'mylib', root: '.', runner: 'ctest' }] }),
    });
    const run = await suture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
    const report = JSON.parse(run.stdout) as { projects: Array<{ totals: { tests: number } }> };
    expect(report.projects[0]!.totals.tests).toBe(0);
  });
});
