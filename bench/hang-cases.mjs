#!/usr/bin/env node
// What a parametrized test whose cases all hang costs a gate with the default settings: a pytest
// project with one test function of 9 cases that never end (a sleeping loop), a CMake + CTest
// project with a GoogleTest TEST_P of 9 values that never end (one CTest entry each, by
// gtest_discover_tests), and a Jest project with a test.each of 9 cases that block their worker
// (a busy loop, which only suture's limit stops), gated by `suture run --no-heal` (one run of the
// tests, no re-run).
// Prints the gate's wall time and, per project, its run's duration, how many cases waited out the
// whole per-test limit (`testTimeoutMs`) and how many got the shorter limit of a sibling of a
// case that hung (`rerunTimeoutMs`; for Jest, a fifth of it once two had hung), read from the
// cases' timeout messages.
// `--at COMMIT` builds an earlier commit outside the repository and runs it the same way.
// Prints figures; it is not a test.
//   node bench/hang-cases.mjs [--at COMMIT]
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { commitFixture, removeDir, writeAt } from '../packages/cli/test/harness/cli.mjs';
import { runSutureAt, sutureRoot } from './lib/suture-at.mjs';

const CASES = 9;
const args = process.argv.slice(2);
// suture and the plugins the fixture's config names both come from this root
const { root, at } = await sutureRoot(args);
const runSuture = (argv, cwd) => runSutureAt(root, argv, cwd);

async function fixture() {
  await mkdir(join(root, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(root, '.tmp', 'bench-hang-cases-'));
  await writeAt(
    dir,
    'py/tests/test_cases.py',
    `import time\n\nimport pytest\n\n\n@pytest.mark.parametrize("n", range(${CASES}))\ndef test_hangs(n):\n    while True:\n        time.sleep(0.1)\n`,
  );
  await writeAt(
    dir,
    'cpp/CMakeLists.txt',
    'cmake_minimum_required(VERSION 3.19)\nproject(cases CXX)\nset(CMAKE_CXX_STANDARD 17)\nenable_testing()\nfind_package(GTest REQUIRED)\ninclude(GoogleTest)\nadd_executable(t t.cpp)\ntarget_link_libraries(t GTest::gtest_main)\ngtest_discover_tests(t)\n',
  );
  await writeAt(
    dir,
    'cpp/t.cpp',
    `#include <gtest/gtest.h>\n#include <chrono>\n#include <thread>\nclass Hangs : public ::testing::TestWithParam<int> {};\nTEST_P(Hangs, Forever) { for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100)); }\nINSTANTIATE_TEST_SUITE_P(Nine, Hangs, ::testing::Range(0, ${CASES}));\n`,
  );
  await writeAt(dir, 'js/package.json', '{ "name": "hang-cases-js", "private": true }\n');
  await writeAt(
    dir,
    'js/cases.test.js',
    `test.each(Array.from({ length: ${CASES} }, (_, n) => n))('hangs %i', () => {\n  for (;;) {}\n});\n`,
  );
  await writeAt(
    dir,
    'suture.config.json',
    `${JSON.stringify(
      {
        projects: [
          { name: 'py', root: 'py', runner: 'pytest' },
          { name: 'cpp', root: 'cpp', runner: 'ctest' },
          { name: 'js', root: 'js', runner: 'jest' },
        ],
      },
      null,
      2,
    )}\n`,
  );
  commitFixture(dir);
  return dir;
}

const s = (ms) => `${(ms / 1000).toFixed(1)} s`;

console.log(at ? `suture at ${at}` : 'suture of the working tree');
const dir = await fixture();
try {
  const started = performance.now();
  const r = await runSuture(['run', '--no-heal', '--json', '--reporter', 'json'], dir);
  const wall = performance.now() - started;
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(`suture run --no-heal exited ${r.code} without a report:\n${r.stderr.slice(-2000)}`);
  }
  console.log(`\nsuture run --no-heal: ${s(wall)} in all (exit ${r.code})`);
  for (const p of report.projects) {
    const rounds = p.rounds.map((x) => `${x.kind} ${s(x.durationMs)}`).join(', ');
    const timeouts = p.rounds.flatMap((round) => round.tests).filter((t) => t.status === 'timeout');
    // pytest and CTest say "per-test limit"; Jest names the limit's reason
    const full = timeouts.filter((t) =>
      /per-test limit|did not finish within \d+ ms \((?:the default limit|the test's timeout)/.test(
        t.message ?? '',
      ),
    );
    const sibling = timeouts.filter((t) => /ran past its limit first/.test(t.message ?? ''));
    // Jest: the shorter limit once two of the family hung
    const repeated = timeouts.filter((t) => /ran past their limits in this run/.test(t.message ?? ''));
    console.log(
      `  ${p.name}: ${p.status}; rounds: ${rounds}; ${timeouts.length} of ${CASES} cases reported as timeouts`,
    );
    console.log(
      `    the whole per-test limit: ${full.length}; a sibling's limit: ${sibling.length}${repeated.length > 0 ? `; a fifth of it, once two had hung: ${repeated.length}` : ''}`,
    );
    for (const t of timeouts) console.log(`    timeout ${t.id}: ${(t.message ?? '').slice(0, 110)}`);
  }
} finally {
  await removeDir(dir);
}
