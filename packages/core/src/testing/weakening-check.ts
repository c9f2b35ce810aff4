import type { Analyzer } from '../api/plugin.js';
import { checkTestWeakening } from '../engine/weakening.js';
import { wrapAnalyzer } from '../host/wrap-plugin.js';
import { silentLogger } from './conformance-utils.js';

export interface TestEditVerdict {
  /** Why the gate would refuse the edit as weakening the tests; undefined when it would not. */
  refused?: string;
  /** The gate would keep the edit and mark it "expectation changed" in every report. */
  expectationChanged: boolean;
  /** Whether the analyzer's `testModel` read both versions alike (else the gate reports the file unread). */
  readByAnalyzer: boolean;
}

/**
 * What the gate's test-weakening guard makes of an edit to a test file when `analyzer` reads it:
 * the analyzer goes through the same wrapper the gate uses, and the guard compares its
 * `testModel` of both versions as it does for a fixer's proposal. For analyzer authors, to test a
 * `testModel` against the weakenings it must refuse and the fixes it must keep.
 */
export function checkTestEdit(
  analyzer: Analyzer,
  file: string,
  before: string,
  after: string,
): TestEditVerdict {
  const wrapped = wrapAnalyzer(analyzer, undefined, silentLogger);
  const verdict = checkTestWeakening(file, before, after, { analyzer: wrapped });
  return {
    ...(verdict.weakening ? { refused: verdict.weakening } : {}),
    expectationChanged: verdict.expectationChanged,
    readByAnalyzer: verdict.readBy !== undefined,
  };
}
