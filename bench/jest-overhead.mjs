#!/usr/bin/env node
// suture's overhead on a passing Jest suite against plain Jest (the repository's Jest 30), and a
// targeted re-run of one failing test against a full re-run. Prints figures; it is not a test.
//   node bench/jest-overhead.mjs [tests=400] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jest from '../packages/runner-jest/dist/index.js';
import { compareOverhead, timed } from './lib/overhead.mjs';

const TESTS = Number(process.argv[2] ?? 400);
const REPEATS = Number(process.argv[3] ?? 5);
const JEST = new URL('../node_modules/jest/bin/jest.js', import.meta.url).pathname;

// The failing test fails only when SUTURE_BENCH_FAIL is set, so both phases run the same files.
const root = await mkdtemp(join(tmpdir(), 'suture-bench-jest-'));
await mkdir(join(root, '__tests__'));
await writeFile(join(root, 'package.json'), '{ "private": true, "type": "commonjs" }\n');
const perFile = 40;
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from(
    { length: Math.min(perFile, TESTS - f * perFile) },
    (_, i) =>
      `  test('case ${i}', () => {\n    expect(Array.from({ length: ${i + 10} }, (_, k) => k).reduce((a, b) => a + b, 0)).toBe(${((i + 10) * (i + 9)) / 2});\n  });\n`,
  ).join('');
  await writeFile(join(root, '__tests__', `gen_${f}.test.js`), `describe('gen ${f}', () => {\n${body}});\n`);
}
await writeFile(
  join(root, '__tests__', 'zz_maybe.test.js'),
  "test('maybe fails', () => {\n  expect(process.env.SUTURE_BENCH_FAIL).toBeUndefined();\n});\n",
);

await compareOverhead({
  runner: jest({ jestBin: JEST }),
  root,
  plain: () => timed(() => execFileSync(process.execPath, [JEST, '--ci'], { cwd: root, stdio: 'ignore' })),
  plainLabel: 'plain jest --ci',
  failingId: '__tests__/zz_maybe.test.js::maybe fails',
  repeats: REPEATS,
  describe: (n) => `jest suite: ${n} tests in ${Math.ceil(TESTS / perFile) + 1} files`,
});
await rm(root, { recursive: true, force: true });
