#!/usr/bin/env node
// suture's overhead on a passing Jest suite against plain Jest (the repository's Jest 30), and a
// targeted re-run of one failing test against a full re-run. Prints figures; it is not a test.
//   node bench/jest-overhead.mjs [tests=400] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../packages/core/dist/testing/index.js';
import jest from '../packages/runner-jest/dist/index.js';

const TESTS = Number(process.argv[2] ?? 400);
const REPEATS = Number(process.argv[3] ?? 5);
const JEST = new URL('../node_modules/jest/bin/jest.js', import.meta.url).pathname;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
// the machine may be shared: the spread says how much to trust the medians
const spread = (xs) => `(runs ${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms)`;

// The failing test fails only when SUTURE_BENCH_FAIL is set, so both phases run the same files.
const root = await mkdtemp(join(tmpdir(), 'suture-bench-jest-'));
await mkdir(join(root, '__tests__'));
await writeFile(join(root, 'package.json'), '{ "private": true, "type": "commonjs" }\n');
const perFile = 40;
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from({ length: Math.min(perFile, TESTS - f * perFile) }, (_, i) => `  test('case ${i}', () => {\n    expect(Array.from({ length: ${i + 10} }, (_, k) => k).reduce((a, b) => a + b, 0)).toBe(${((i + 10) * (i + 9)) / 2});\n  });\n`).join('');
  await writeFile(join(root, '__tests__', `gen_${f}.test.js`), `describe('gen ${f}', () => {\n${body}});\n`);
}
await writeFile(join(root, '__tests__', 'zz_maybe.test.js'), "test('maybe fails', () => {\n  expect(process.env.SUTURE_BENCH_FAIL).toBeUndefined();\n});\n");

const plain = () => {
  const t = performance.now();
  try {
    execFileSync(process.execPath, [JEST, '--ci'], { cwd: root, stdio: 'ignore' });
  } catch {} // exit 1 when the maybe-failing test fails
  return performance.now() - t;
};
const viaRunner = async (selection) => {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-bench-work-'));
  const t = performance.now();
  const r = await jest({ jestBin: JEST }).run({ root, workDir, timeoutMs: 600_000, signal: new AbortController().signal, logger: silentLogger, ...(selection ? { selection } : {}) });
  const ms = performance.now() - t;
  await rm(workDir, { recursive: true, force: true });
  if (r.status === 'error') throw new Error(`the runner failed: ${r.error}`);
  return { ms, tests: r.tests.length, failed: r.tests.filter((x) => x.status === 'failed').map((x) => x.id) };
};

// warm-up: Jest's transform cache and the file system cache settle for both
plain();
const first = await viaRunner();
const plainTimes = [];
const suiteTimes = [];
// alternate which goes first, so neither always runs on the caches the other warmed
for (let i = 0; i < REPEATS; i++) {
  if (i % 2 === 0) plainTimes.push(plain());
  suiteTimes.push((await viaRunner()).ms);
  if (i % 2 === 1) plainTimes.push(plain());
}

const FAILING = '__tests__/zz_maybe.test.js::maybe fails';
process.env.SUTURE_BENCH_FAIL = '1';
const full = [];
const targeted = [];
let failing = [];
for (let i = 0; i < REPEATS; i++) {
  const r = await viaRunner();
  full.push(r.ms);
  failing = r.failed;
  targeted.push((await viaRunner([FAILING])).ms);
}
delete process.env.SUTURE_BENCH_FAIL;
if (failing.join() !== FAILING) throw new Error(`expected ${FAILING} to fail, got: ${failing.join(', ') || 'none'}`);

const p = median(plainTimes);
const s = median(suiteTimes);
const f = median(full);
const t = median(targeted);
console.log(`jest suite: ${first.tests} tests in ${Math.ceil(TESTS / perFile) + 1} files, ${REPEATS} repeats (medians)`);
console.log(`  plain jest --ci:     ${p.toFixed(0)} ms ${spread(plainTimes)}`);
console.log(`  suture jest runner:  ${s.toFixed(0)} ms ${spread(suiteTimes)}`);
console.log(`  overhead:            ${(((s - p) / p) * 100).toFixed(1)} % (target <= 10 %)`);
console.log(`  targeted re-run of 1 failing test: ${t.toFixed(0)} ms vs full run ${f.toFixed(0)} ms (${(f / t).toFixed(1)}x faster)`);
await rm(root, { recursive: true, force: true });
