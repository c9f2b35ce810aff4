#!/usr/bin/env node
// suture's overhead on a passing pytest suite against plain pytest, and a targeted re-run of one
// failing test against a full re-run. Prints figures; it is not a test.
//   node bench/pytest-overhead.mjs [tests=400] [repeats=5]
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pytest from '../packages/runner-pytest/dist/index.js';
import { compareOverhead, timed } from './lib/overhead.mjs';

const TESTS = Number(process.argv[2] ?? 400);
const REPEATS = Number(process.argv[3] ?? 5);

const root = await mkdtemp(join(tmpdir(), 'suture-bench-pytest-'));
await mkdir(join(root, 'tests'));
const perFile = 50;
for (let f = 0; f < Math.ceil(TESTS / perFile); f++) {
  const body = Array.from(
    { length: Math.min(perFile, TESTS - f * perFile) },
    (_, i) => `def test_case_${i}():\n    assert sum(range(${i + 10})) == ${((i + 10) * (i + 9)) / 2}\n`,
  ).join('\n');
  await writeFile(join(root, 'tests', `test_gen_${f}.py`), body);
}
// fails only while SUTURE_BENCH_FAIL is set, so the passing suite and the failing one are the same files
await writeFile(
  join(root, 'tests', 'test_zz_maybe.py'),
  'import os\n\n\ndef test_maybe_fails():\n    assert "SUTURE_BENCH_FAIL" not in os.environ\n',
);

const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
await compareOverhead({
  runner: pytest(),
  root,
  plain: () =>
    timed(() =>
      execFileSync(
        'python3',
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '--continue-on-collection-errors'],
        { cwd: root, env, stdio: 'ignore' },
      ),
    ),
  plainLabel: 'plain python3 -m pytest',
  failingId: 'tests/test_zz_maybe.py::test_maybe_fails',
  repeats: REPEATS,
  describe: (n) => `pytest suite: ${n} tests in ${Math.ceil(TESTS / perFile) + 1} files`,
});
await rm(root, { recursive: true, force: true });
