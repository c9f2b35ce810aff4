#!/usr/bin/env node
// suture's overhead on a passing CTest + GoogleTest suite against plain `cmake --build` + `ctest`,
// and a targeted re-run of one failing test against a full re-run. Prints figures; it is not a test.
//   node bench/ctest-overhead.mjs [tests=200] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ctest from '../packages/runner-ctest/dist/index.js';
import { compareOverhead, timed } from './lib/overhead.mjs';

const TESTS = Number(process.argv[2] ?? 200);
const REPEATS = Number(process.argv[3] ?? 5);

// One binary with gtest_discover_tests: every TEST is its own CTest entry, as in most projects.
// Bench.MaybeFails fails only when SUTURE_BENCH_FAIL is set, so the same build serves both phases.
const root = await mkdtemp(join(tmpdir(), 'suture-bench-ctest-'));
const perFile = 50;
const sources = [];
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from(
    { length: Math.min(perFile, TESTS - f * perFile) },
    (_, i) =>
      `TEST(Gen${f}, Case${i}) {\n  int acc = 0;\n  for (int k = 0; k < ${i + 10}; ++k) acc += k;\n  EXPECT_EQ(acc, ${((i + 10) * (i + 9)) / 2});\n}\n`,
  ).join('\n');
  await writeFile(join(root, `gen_${f}.cpp`), `#include <gtest/gtest.h>\n\n${body}`);
  sources.push(`gen_${f}.cpp`);
}
await writeFile(
  join(root, 'maybe_fails.cpp'),
  '#include <cstdlib>\n#include <gtest/gtest.h>\n\nTEST(Bench, MaybeFails) {\n  EXPECT_EQ(std::getenv("SUTURE_BENCH_FAIL"), nullptr);\n}\n',
);
sources.push('maybe_fails.cpp');
await writeFile(
  join(root, 'CMakeLists.txt'),
  `cmake_minimum_required(VERSION 3.16)\nproject(bench CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\nadd_executable(unit_tests ${sources.join(' ')})\ntarget_link_libraries(unit_tests GTest::gtest_main)\ngtest_discover_tests(unit_tests)\n`,
);

// the plain build uses the generator and build type the runner picks, so only suture's own work differs
const hasNinja = (() => {
  try {
    execFileSync('ninja', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const plainBuild = join(root, 'build-plain');
execFileSync(
  'cmake',
  ['-S', root, '-B', plainBuild, ...(hasNinja ? ['-G', 'Ninja'] : []), '-DCMAKE_BUILD_TYPE=Debug'],
  { stdio: 'ignore' },
);
execFileSync('cmake', ['--build', plainBuild, '--parallel', '2'], { stdio: 'ignore' });

const plain = () =>
  timed(() => {
    execFileSync('cmake', ['--build', plainBuild, '--parallel', '2'], { stdio: 'ignore' });
    execFileSync('ctest', ['--test-dir', plainBuild], { stdio: 'ignore' });
  });

await compareOverhead({
  runner: ctest({ parallel: 2 }),
  root,
  plain,
  plainLabel: 'plain cmake --build + ctest',
  failingId: 'Bench.MaybeFails',
  repeats: REPEATS,
  describe: (n) =>
    `ctest suite: ${n} GoogleTest tests (gtest_discover_tests), ${hasNinja ? 'Ninja' : 'default generator'}`,
});
await rm(root, { recursive: true, force: true });
