import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import ctest from '@suture/runner-ctest';
import { runAutoRun } from '@suture/core/internal';
import { requireToolchain } from '@suture/core/testing';
import { cleanup, workspace } from '../cli-support.js';
import {
  FIXTURES,
  autoRunOptions,
  gateProject,
  importFixer,
  requirePythonModule,
  scriptedGenerator,
  tree,
  type Script,
} from './support.js';

afterAll(cleanup);

const counter = join(tmpdir(), `suture-flaky-cpp-${process.pid}-${Date.now()}`);

const test = (name: string, body: string, includes = ''): string =>
  `#include <gtest/gtest.h>\n${includes}#include "ops.h"\n\nTEST(Gen, ${name}) {\n${body}\n}\n`;

const mix: Script = (request, attempt) => {
  if (attempt === 2) {
    const lines = request.feedback?.uncovered.find((u) => u.file === 'src/ops.cpp')?.lines ?? [];
    if (!lines.some((l) => l >= 10)) return [];
    return [
      {
        file: 'tests/gen/sign_test.cpp',
        content: test('Sign', '  EXPECT_EQ(sign(3) + sign(-3) * 2 + sign(0), -1);'),
      },
    ];
  }
  return [
    { file: 'tests/gen/low_test.cpp', content: test('Low', '  EXPECT_EQ(clamp(-1, 0, 10), 0);') },
    { file: 'tests/gen/broken_test.cpp', content: test('Broken', '  EXPECT_EQ(clamp(1, 0, 2) 1);') },
    {
      file: 'tests/gen/healed_test.cpp',
      content: test(
        'High',
        '  std::vector<int> v{1, 2};\n  EXPECT_EQ(clamp(std::accumulate(v.begin(), v.end(), 0), 0, 2), 2);',
        '#include <vector>\n',
      ),
    },
    { file: 'tests/gen/fails_test.cpp', content: test('Wrong', '  EXPECT_EQ(clamp(5, 0, 10), 6);') },
    {
      file: 'tests/gen/flaky_test.cpp',
      content: test(
        'Sometimes',
        [
          // the runs' own temp folder: the real /tmp is read-only in the sandbox
          `  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";`,
          `  std::string where = dir + "/" + ${JSON.stringify(basename(counter))};`,
          '  const char* path = where.c_str();',
          '  int n = 0;',
          '  if (FILE* f = std::fopen(path, "r")) { if (std::fscanf(f, "%d", &n) != 1) n = 0; std::fclose(f); }',
          '  n++;',
          '  if (FILE* f = std::fopen(path, "w")) { std::fprintf(f, "%d", n); std::fclose(f); }',
          '  EXPECT_EQ(n % 2, 1);',
        ].join('\n'),
        '#include <cstdio>\n#include <cstdlib>\n#include <string>\n',
      ),
    },
    { file: 'tests/gen/same_test.cpp', content: test('Again', '  EXPECT_EQ(clamp(7, 0, 10), 7);') },
  ];
};

describe('auto-run with real CMake, CTest, GoogleTest and gcovr', () => {
  it('adds the generated programs to the build, keeps exactly the right ones and takes the rest back out', async (t) => {
    requireToolchain(t, { command: 'cmake', install: 'apt-get install cmake' });
    requirePythonModule(t, 'gcovr', 'python3 -m pip install gcovr');
    const root = await workspace(join(FIXTURES, 'cpp'));
    const before = await tree(root);
    const { generator, requests } = scriptedGenerator('cpp', mix);
    const fixer = importFixer(/accumulate.*is not a member of .std/, 'std::accumulate', '#include <numeric>');
    const report = await runAutoRun(
      autoRunOptions(root, gateProject('cpp', root, ctest()), {
        source: { kind: 'generator', generator },
        target: ['src/ops.cpp'],
        fixers: [fixer],
      }),
    );
    expect(report.error).toBeUndefined();
    expect(Object.fromEntries(report.tests.map((x) => [x.file, x.verdict]))).toEqual({
      'tests/gen/low_test.cpp': 'kept',
      'tests/gen/broken_test.cpp': 'does-not-compile',
      'tests/gen/healed_test.cpp': 'kept',
      'tests/gen/fails_test.cpp': 'fails',
      'tests/gen/flaky_test.cpp': 'flaky',
      'tests/gen/same_test.cpp': 'no-coverage',
      'tests/gen/sign_test.cpp': 'kept',
    });
    const healed = report.tests.find((x) => x.file === 'tests/gen/healed_test.cpp')!;
    expect(
      healed.attempts.some((a) => a.verdict === 'healed' && a.diff?.includes('+#include <numeric>')),
    ).toBe(true);
    expect(report.tests.find((x) => x.file === 'tests/gen/broken_test.cpp')!.reason).toContain(
      'broken_test.cpp',
    );
    expect(requests[1]!.feedback?.uncovered.map((u) => u.file)).toEqual(['src/ops.cpp']);
    expect(report.settings.coverageTool).toBe('gcovr');
    expect(report.coverage.after.lines.covered).toBe(report.coverage.after.lines.total);
    expect(report.coverage.after.branches.covered).toBeGreaterThan(report.coverage.before.branches.covered);

    // the kept programs are in the build through a generated folder list and one marked line
    const after = await tree(root);
    expect(Object.keys(after).sort()).toEqual(
      [
        ...Object.keys(before),
        'tests/gen/CMakeLists.txt',
        'tests/gen/healed_test.cpp',
        'tests/gen/low_test.cpp',
        'tests/gen/sign_test.cpp',
      ].sort(),
    );
    const list = after['tests/gen/CMakeLists.txt']!;
    expect(list).toContain('add_test(NAME suture_gen_low_test COMMAND suture_gen_low_test)');
    expect(list).toContain('target_link_libraries(suture_gen_sign_test PRIVATE calc GTest::gtest_main)');
    expect(list).not.toContain('broken_test');
    expect(after['CMakeLists.txt']).toBe(
      `${before['CMakeLists.txt']}add_subdirectory(tests/gen) # suture: generated tests\n`,
    );
    const md = await readFile(join(report.runDir!, 'report.md'), 'utf8');
    expect(md).toContain('removed: does not compile');
  }, 900_000);
});
