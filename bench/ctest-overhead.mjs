#!/usr/bin/env node
// suture's overhead on a passing CTest + GoogleTest suite against plain `cmake --build` + `ctest`,
// and a targeted re-run of one failing test against a full re-run. Prints figures; it is not a test.
//   node bench/ctest-overhead.mjs [tests=200] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../packages/core/dist/testing/index.js';
import ctest from '../packages/runner-ctest/dist/index.js';

const TESTS = Number(process.argv[2] ?? 200);
const REPEATS = Number(process.argv[3] ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// the machine may be shared: the spread says how much to trust the medians
const spread = (xs) => `(runs ${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms)`;

// One binary with gtest_discover_tests: every TEST is its own CTest entry, as in most projects.
// Bench.MaybeFails fails only when SUTURE_BENCH_FAIL is set, so the same build serves both phases.
const root = await mkdtemp(join(tmpdir(), 'suture-bench-ctest-'));
const perFile = 50;
const sources = [];
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from({ length: Math.min(perFile, TESTS - f * perFile) }, (_, i) => `TEST(Gen${f}, Case${i}) {\n  int acc = 0;\n  for (int k = 0; k < ${i + 10}; ++k) acc += k;\n  EXPECT_EQ(acc, ${((i + 10) * (i + 9)) / 2});\n}\n`).join('\n');
  await writeFile(join(root, `gen_${f}.cpp`), `#include <gtest/gtest.h>\n\n${body}`);
  sources.push(`gen_${f}.cpp`);
}
await writeFile(join(root, 'maybe_fails.cpp'), '#include <cstdlib>\n#include <gtest/gtest.h>\n\nTEST(Bench, MaybeFails) {\n  EXPECT_EQ(std::getenv("SUTURE_BENCH_FAIL"), nullptr);\n}\n');
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
execFileSync('cmake', ['-S', root, '-B', plainBuild, ...(hasNinja ? ['-G', 'Ninja'] : []), '-DCMAKE_BUILD_TYPE=Debug'], { stdio: 'ignore' });
execFileSync('cmake', ['--build', plainBuild, '--parallel', '2'], { stdio: 'ignore' });

const plain = () => {
  const t = performance.now();
  execFileSync('cmake', ['--build', plainBuild, '--parallel', '2'], { stdio: 'ignore' });
  try {
    execFileSync('ctest', ['--test-dir', plainBuild], { stdio: 'ignore' });
  } catch {} // exit 8 when Bench.MaybeFails fails
  return performance.now() - t;
};
const viaRunner = async (selection) => {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-bench-work-'));
  const t = performance.now();
  const r = await ctest({ parallel: 2 }).run({ root, workDir, timeoutMs: 600_000, signal: new AbortController().signal, logger: silentLogger, ...(selection ? { selection } : {}) });
  const ms = performance.now() - t;
  await rm(workDir, { recursive: true, force: true });
  if (r.status === 'error') throw new Error(`the runner failed: ${r.error}`);
  return { ms, tests: r.tests.length, failed: r.tests.filter((x) => x.status === 'failed').map((x) => x.id) };
};

// warm-up: the runner configures and builds its own folder once; caches settle for both
const first = await viaRunner();
plain();
const plainTimes = [];
const suiteTimes = [];
// alternate which goes first, so neither always runs on the caches the other warmed
for (let i = 0; i < REPEATS; i++) {
  if (i % 2 === 0) plainTimes.push(plain());
  suiteTimes.push((await viaRunner()).ms);
  if (i % 2 === 1) plainTimes.push(plain());
}

process.env.SUTURE_BENCH_FAIL = '1';
const full = [];
const targeted = [];
let failing = [];
for (let i = 0; i < REPEATS; i++) {
  const r = await viaRunner();
  full.push(r.ms);
  failing = r.failed;
  targeted.push((await viaRunner(['Bench.MaybeFails'])).ms);
}
delete process.env.SUTURE_BENCH_FAIL;
if (failing.join() !== 'Bench.MaybeFails') throw new Error(`expected Bench.MaybeFails to fail, got: ${failing.join(', ') || 'none'}`);

const p = median(plainTimes);
const s = median(suiteTimes);
const f = median(full);
const t = median(targeted);
console.log(`ctest suite: ${first.tests} GoogleTest tests (gtest_discover_tests), ${hasNinja ? 'Ninja' : 'default generator'}, ${REPEATS} repeats (medians)`);
console.log(`  plain cmake --build + ctest: ${p.toFixed(0)} ms ${spread(plainTimes)}`);
console.log(`  suture ctest runner:         ${s.toFixed(0)} ms ${spread(suiteTimes)}`);
console.log(`  overhead:                    ${(((s - p) / p) * 100).toFixed(1)} % (target <= 10 %)`);
console.log(`  targeted re-run of 1 failing test: ${t.toFixed(0)} ms vs full run ${f.toFixed(0)} ms (${(f / t).toFixed(1)}x faster)`);
await rm(root, { recursive: true, force: true });
