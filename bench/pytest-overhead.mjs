#!/usr/bin/env node
// suture's overhead on a passing pytest suite against plain pytest, and a targeted re-run of one
// failing test against a full re-run. Prints figures; it is not a test.
//   node bench/pytest-overhead.mjs [tests=400] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { silentLogger } from '../packages/core/dist/testing/index.js';
import pytest from '../packages/runner-pytest/dist/index.js';

const TESTS = Number(process.argv[2] ?? 400);
const REPEATS = Number(process.argv[3] ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const root = await mkdtemp(join(tmpdir(), 'suture-bench-pytest-'));
await mkdir(join(root, 'tests'));
const perFile = 50;
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from({ length: Math.min(perFile, TESTS - f * perFile) }, (_, i) => `def test_case_${i}():\n    assert sum(range(${i + 10})) == ${((i + 10) * (i + 9)) / 2}\n`).join('\n');
  await writeFile(join(root, 'tests', `test_gen_${f}.py`), body);
}
await writeFile(join(root, 'tests', 'test_zz_fail.py'), 'def test_fails():\n    assert 1 == 2\n');

const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
const plain = () => {
  const t = performance.now();
  try {
    execFileSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--continue-on-collection-errors'], { cwd: root, env, stdio: 'ignore' });
  } catch {}
  return performance.now() - t;
};
const viaRunner = async (selection) => {
  const workDir = await mkdtemp(join(tmpdir(), 'suture-bench-work-'));
  const t = performance.now();
  const r = await pytest().run({ root, workDir, timeoutMs: 600_000, signal: new AbortController().signal, logger: silentLogger, ...(selection ? { selection } : {}) });
  const ms = performance.now() - t;
  await rm(workDir, { recursive: true, force: true });
  return { ms, tests: r.tests.length };
};

plain();
await viaRunner();
const plainTimes = [];
const suiteTimes = [];
let count = 0;
for (let i = 0; i < REPEATS; i++) {
  plainTimes.push(plain());
  const r = await viaRunner();
  suiteTimes.push(r.ms);
  count = r.tests;
}
const targeted = [];
for (let i = 0; i < REPEATS; i++) targeted.push((await viaRunner(['tests/test_zz_fail.py::test_fails'])).ms);

const p = median(plainTimes);
const s = median(suiteTimes);
console.log(`pytest suite: ${count} tests, ${REPEATS} repeats (medians)`);
console.log(`  plain pytest:         ${p.toFixed(0)} ms`);
console.log(`  suture pytest runner: ${s.toFixed(0)} ms`);
console.log(`  overhead:             ${(((s - p) / p) * 100).toFixed(1)} % (target <= 10 %)`);
console.log(`  targeted re-run of 1 failing test: ${median(targeted).toFixed(0)} ms vs full run ${s.toFixed(0)} ms (${(s / median(targeted)).toFixed(1)}x faster)`);
await rm(root, { recursive: true, force: true });
