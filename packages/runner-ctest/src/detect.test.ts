import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCmake } from './cmake-scan.js';
import { detectCtest } from './detect.js';
import { isTestSwitch } from './test-switches.js';

const temps: string[] = [];
afterAll(() => Promise.all(temps.map((d) => rm(d, { recursive: true, force: true }))));

async function project(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'detect-ctest-'));
  temps.push(dir);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), text);
  }
  return dir;
}

/** The tests real CMake + CTest see after a configure with these arguments. */
function ctestCount(dir: string, args: string[]): number {
  const build = join(dir, `b${Math.random().toString(36).slice(2)}`);
  execFileSync('cmake', ['-S', dir, '-B', build, ...args], { stdio: 'pipe' });
  const listed = execFileSync('ctest', ['-N'], { cwd: build, encoding: 'utf8' });
  return Number(/Total Tests: (\d+)/.exec(listed)?.[1] ?? NaN);
}

const HEAD = 'cmake_minimum_required(VERSION 3.16)\nproject(demo NONE)\n';
const TESTS = 'add_test(NAME one COMMAND ${CMAKE_COMMAND} -E true)\n';

describe('detectCtest on projects whose tests are off by default', () => {
  // each variant is configured by real CMake twice: as is (no test) and with the detected arguments
  const variants: Array<[string, Record<string, string>, string[]]> = [
    [
      'option(... OFF)',
      {
        'CMakeLists.txt': `${HEAD}option(DEMO_BUILD_TESTS "Build the tests" OFF)\nif(DEMO_BUILD_TESTS)\n  enable_testing()\n  ${TESTS}endif()\n`,
      },
      ['-DDEMO_BUILD_TESTS=ON'],
    ],
    [
      'an option without a value, in an included cmake/options.cmake',
      {
        'CMakeLists.txt': `${HEAD}include(\${CMAKE_CURRENT_SOURCE_DIR}/cmake/options.cmake)\nif(DEMO_TESTS)\n  enable_testing()\n  ${TESTS}endif()\n`,
        'cmake/options.cmake': 'option(DEMO_TESTS "Tests")\n',
      },
      ['-DDEMO_TESTS=ON'],
    ],
    [
      'cmake_dependent_option on BUILD_TESTING',
      {
        'CMakeLists.txt': `${HEAD}include(CTest)\ninclude(CMakeDependentOption)\ncmake_dependent_option(DEMO_BUILD_TESTS "Tests" OFF "BUILD_TESTING" OFF)\nif(DEMO_BUILD_TESTS)\n  ${TESTS}endif()\n`,
      },
      ['-DDEMO_BUILD_TESTS=ON'],
    ],
    [
      'BUILD_TESTING cached OFF before include(CTest)',
      {
        'CMakeLists.txt': `${HEAD}set(BUILD_TESTING OFF CACHE BOOL "Build the tests")\ninclude(CTest)\nif(BUILD_TESTING)\n  ${TESTS}endif()\n`,
      },
      ['-DBUILD_TESTING=ON'],
    ],
  ];
  for (const [what, files, args] of variants) {
    it(`turns on ${what} through configureArgs, which real CMake honours`, async () => {
      const dir = await project(files);
      const found = await detectCtest(dir);
      expect(found?.options).toEqual({ configureArgs: args });
      expect(found?.notes).toEqual([
        expect.stringMatching(/OFF by default \(.+:\d+\), so CTest would run no test/),
      ]);
      expect(ctestCount(dir, [])).toBe(0);
      expect(ctestCount(dir, args)).toBe(1);
    });
  }

  it('says when a normal set() OFF hides any -D, and adds no argument that cannot work', async () => {
    const dir = await project({
      'CMakeLists.txt': `${HEAD}set(DEMO_BUILD_TESTS OFF)\nif(DEMO_BUILD_TESTS)\n  enable_testing()\n  ${TESTS}endif()\n`,
    });
    const found = await detectCtest(dir);
    expect(found?.options).toBeUndefined();
    expect(found?.notes).toEqual([
      expect.stringContaining(
        'CMakeLists.txt:3 sets DEMO_BUILD_TESTS OFF as a normal variable, which no -DDEMO_BUILD_TESTS=ON overrides',
      ),
    ]);
    expect(ctestCount(dir, ['-DDEMO_BUILD_TESTS=ON'])).toBe(0);
  });

  it('leaves alone tests that are on by default, and kinds of tests a plain run should not switch on', async () => {
    const dir = await project({
      'CMakeLists.txt': `${HEAD}enable_testing()\noption(DEMO_BUILD_TESTS "Tests" ON)\noption(DEMO_INTEGRATION_TESTS "Needs a database" OFF)\noption(DEMO_DISABLE_TESTS "Inverted" OFF)\n# option(DEMO_OLD_TESTS "commented out" OFF)\n${TESTS}`,
    });
    const found = await detectCtest(dir);
    expect(found).toEqual({ name: expect.any(String), reason: 'CMakeLists.txt calls enable_testing' });
    expect(ctestCount(dir, [])).toBe(1);
  });

  it('does not take a commented-out enable_testing() for a test project', async () => {
    const dir = await project({
      'CMakeLists.txt': `${HEAD}# enable_testing()\n#[[ add_test(NAME x COMMAND y) ]]\n`,
    });
    expect(await detectCtest(dir)).toBeNull();
  });
});

describe('the CMake reading behind it', () => {
  it('reads commands, quoted and bracket arguments, and which ones are conditional', () => {
    const cmds = parseCmake(
      'Option(A_TESTS "a (b) \\"c\\"" OFF) # note\nif(X)\n  set(B [=[x]]y]=] CACHE STRING "")\nendif()\nfunction(f)\n  option(C_TESTS "" OFF)\nendfunction()\n',
      'CMakeLists.txt',
    );
    expect(cmds.map((c) => [c.name, c.args, c.line, c.conditional])).toEqual([
      ['option', ['A_TESTS', 'a (b) "c"', 'OFF'], 1, false],
      ['if', ['X'], 2, false],
      ['set', ['B', 'x]]y', 'CACHE', 'STRING', ''], 3, true],
      ['endif', [], 4, false],
      ['function', ['f'], 5, false],
      ['option', ['C_TESTS', '', 'OFF'], 6, true],
      ['endfunction', [], 7, false],
    ]);
  });

  it('knows a test switch by its name', () => {
    const yes = [
      'BUILD_TESTING',
      'FOO_BUILD_TESTS',
      'gtest_build_tests',
      'FOO_UNIT_TESTS',
      'WITH_TESTS',
      'FOO_TESTING',
    ];
    const no = [
      'FOO_INTEGRATION_TESTS',
      'FOO_DISABLE_TESTS',
      'FOO_USE_GTEST',
      'FOO_TESTS_COVERAGE',
      'CONTEST',
    ];
    expect(yes.filter(isTestSwitch)).toEqual(yes);
    expect(no.filter(isTestSwitch)).toEqual([]);
  });
});
