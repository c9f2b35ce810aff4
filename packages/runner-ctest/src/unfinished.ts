import type { TestResult } from '@suture/core';
import type { EntryEnd } from './ctest-stream.js';

/**
 * Why a GoogleTest case that printed `[ RUN ]` and never its result did not pass. A program that
 * calls `std::exit(0)` in the code under test ends with exit code 0, which CTest reports as
 * Passed: only the missing `[ OK ]` line shows the test never finished.
 */
export function endedEarly(end: EntryEnd): string {
  return end.status === 'passed'
    ? 'the program exited with code 0 while this test ran, before GoogleTest reported its result (an exit in the code under test)'
    : `the program ended (${end.detail})`;
}

/**
 * A one-case entry (gtest_discover_tests) that CTest calls passed, while the case it started never
 * reported a result, is a crash of that case with the reason.
 */
export function unfinished(results: TestResult[], running: string | undefined, end: EntryEnd): TestResult[] {
  if (!running || end.status !== 'passed') return results;
  return results.map((t) => ({
    ...t,
    status: 'crashed',
    message: endedEarly(end),
    details: { ...t.details, gtest: running, ctest: end.detail },
  }));
}
