import { describe, expect, it } from 'vitest';
import { cleanEvidence, EVIDENCE_CHARS } from './evidence.js';

const ROOT = '/work/repo/.tmp/shop';

// As real Jest 30, GoogleTest 1.12 + CTest 3.25 and Python 3.11 printed them for bench/fixtures/prompts.
const JEST = `Error: expect(received).toBe(expected) // Object.is equality

Expected: 3000
Received: 1000
    at Object.toBe (${ROOT}/__tests__/cart.test.js:17:28)
    at Promise.finally.completed (/work/repo/node_modules/jest-circus/build/jestAdapterInit.js:1834:28)
    at new Promise (<anonymous>)
    at callAsyncCircusFn (/work/repo/node_modules/jest-circus/build/jestAdapterInit.js:1774:10)
    at _callCircusTest (/work/repo/node_modules/jest-circus/build/jestAdapterInit.js:1167:40)
    at runTest (/work/repo/node_modules/jest-runner/build/index.js:315:7)
    at processTicksAndRejections (node:internal/process/task_queues:95:5)`;

const GTEST = `Running main() from ./googletest/src/gtest_main.cc
Note: Google Test filter = Median.EvenCountAveragesTheMiddle
[==========] Running 1 test from 1 test suite.
[----------] Global test environment set-up.
[----------] 1 test from Median
[ RUN      ] Median.EvenCountAveragesTheMiddle
${ROOT}/tests/stats_test.cpp:9: Failure
Expected equality of these values:
  stats::median({4, 1, 3, 2})
    Which is: 3
  2.5
[  FAILED  ] Median.EvenCountAveragesTheMiddle (0 ms)
[----------] 1 test from Median (0 ms total)

[----------] Global test environment tear-down
[==========] 1 test from 1 test suite ran. (6 ms total)
[  PASSED  ] 0 tests.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] Median.EvenCountAveragesTheMiddle

 1 FAILED TEST`;

const PYTHON = `Traceback (most recent call last):
  File "${ROOT}/ledger/io.py", line 12, in load
    return json.loads(text)
  File "/usr/lib/python3.11/json/__init__.py", line 346, in loads
    return _default_decoder.decode(s)
  File "/home/u/.venv/lib/python3.11/site-packages/simplejson/decoder.py", line 337, in decode
    obj, end = self.raw_decode(s, idx=_w(s, 0).end())
json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)
----------------------------- Captured stdout call -----------------------------
loading at 0x7f3a2b1c9d80 took 0.25s`;

describe('cleanEvidence', () => {
  it('keeps the assertion and the project frame of a Jest failure, not the frames of jest-circus and Node', () => {
    expect(cleanEvidence(JEST, ROOT)).toBe(
      'Error: expect(received).toBe(expected) // Object.is equality\n\nExpected: 3000\nReceived: 1000\n    at Object.toBe (__tests__/cart.test.js:17:28)',
    );
  });

  it("keeps GoogleTest's failure without its banners and timings", () => {
    expect(cleanEvidence(GTEST, ROOT)).toBe(
      'tests/stats_test.cpp:9: Failure\nExpected equality of these values:\n  stats::median({4, 1, 3, 2})\n    Which is: 3\n  2.5',
    );
  });

  it("drops Python frames outside the project with their source line, and keeps the captured output's section", () => {
    expect(cleanEvidence(PYTHON, ROOT).split('\n')).toEqual([
      'Traceback (most recent call last):',
      '  File "ledger/io.py", line 12, in load',
      '    return json.loads(text)',
      'json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)',
      '----------------------------- Captured stdout call -----------------------------',
      'loading at 0x… took 0.25s',
    ]);
  });

  it('keeps the head and the tail of long output, and says what was left out', () => {
    const long = Array.from({ length: 500 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n');
    const out = cleanEvidence(long, ROOT);
    expect(out.length).toBeLessThanOrEqual(EVIDENCE_CHARS + 60);
    expect(out.startsWith('line 0 ')).toBe(true);
    expect(out.endsWith(`line 499 ${'x'.repeat(40)}`)).toBe(true);
    expect(out).toMatch(/\[\.\.\. \d+ (lines|characters) omitted \.\.\.\]/);
  });
});
