#!/usr/bin/env node
// What a test that hangs costs a gate with the default settings: a repository of three projects
// (pytest, Jest, CMake + CTest with GoogleTest), each with one passing test and one that never
// ends (a sleeping loop, a synchronous loop, a sleeping GoogleTest case), gated by
// `suture run --no-heal` and by `suture run` (check mode, the default fixer ladder). Prints each
// gate's wall time (goal: each hanging test reported as a timeout, named, in under 2 minutes),
// and per project each round's duration and the timed-out tests with the start of their message.
// `--at COMMIT` builds an earlier commit outside the repository and runs it the same way.
// Prints figures; it is not a test.
//   node bench/hang.mjs [--no-heal-only] [--at COMMIT]
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { commitFixture, removeDir, writeAt } from '../packages/cli/test/harness/cli.mjs';
import { runSutureAt, sutureRoot } from './lib/suture-at.mjs';

const args = process.argv.slice(2);
const noHealOnly = args.includes('--no-heal-only');
// suture and the plugins the fixture's config names both come from this root
const { root, at } = await sutureRoot(args);
const runSuture = (argv, cwd) => runSutureAt(root, argv, cwd);

async function fixture() {
  await mkdir(join(root, '.tmp'), { recursive: true });
  const dir = await mkdtemp(join(root, '.tmp', 'bench-hang-'));
  await writeAt(
    dir,
    'py/tests/test_hang.py',
    'import time\n\ndef test_ok():\n    assert 1 + 1 == 2\n\ndef test_hangs():\n    while True:\n        time.sleep(0.1)\n',
  );
  await writeAt(dir, 'js/package.json', '{ "name": "hang-js", "private": true }\n');
  await writeAt(
    dir,
    'js/hang.test.js',
    "test('ok', () => { expect(1).toBe(1); });\ntest('spins', () => { for (;;) {} });\n",
  );
  await writeAt(
    dir,
    'cpp/CMakeLists.txt',
    'cmake_minimum_required(VERSION 3.16)\nproject(hang CXX)\nfind_package(GTest REQUIRED)\nenable_testing()\nadd_executable(t t.cpp)\ntarget_link_libraries(t GTest::gtest_main)\nadd_test(NAME t COMMAND t)\n',
  );
  await writeAt(
    dir,
    'cpp/t.cpp',
    '#include <gtest/gtest.h>\n#include <chrono>\n#include <thread>\nTEST(H, Ok) { EXPECT_EQ(1, 1); }\nTEST(H, Hangs) { for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(100)); }\n',
  );
  await writeAt(
    dir,
    'suture.config.json',
    `${JSON.stringify(
      {
        projects: [
          { name: 'py', root: 'py', runner: 'pytest' },
          { name: 'js', root: 'js', runner: 'jest' },
          { name: 'cpp', root: 'cpp', runner: 'ctest' },
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

async function gate(dir, flags) {
  const started = performance.now();
  const r = await runSuture(['run', ...flags, '--json', '--reporter', 'json'], dir);
  const wall = performance.now() - started;
  let report;
  try {
    report = JSON.parse(r.stdout);
  } catch {
    throw new Error(`suture ${flags.join(' ')} exited ${r.code} without a report:\n${r.stderr.slice(-2000)}`);
  }
  console.log(`\nsuture run ${flags.join(' ')}: ${s(wall)} in all (exit ${r.code})`);
  for (const p of report.projects) {
    const rounds = p.rounds.map((x) => `${x.kind} ${s(x.durationMs)}`).join(', ');
    console.log(`  ${p.name}: ${p.status}; rounds: ${rounds}`);
    const last = new Map();
    for (const round of p.rounds) for (const t of round.tests) if (t.status === 'timeout') last.set(t.id, t);
    for (const t of last.values()) console.log(`    timeout ${t.id}: ${(t.message ?? '').slice(0, 110)}`);
  }
}

// the first gate also builds the C++ project (a few seconds, in its initial round)
console.log(at ? `suture at ${at}` : 'suture of the working tree');
const dir = await fixture();
try {
  await gate(dir, ['--no-heal']);
  if (!noHealOnly) await gate(dir, []);
} finally {
  await removeDir(dir);
}
