import type { FailureInput } from '../api/contracts/failure.js';
import { failureFingerprint } from './fingerprint.js';

/** One failing test (or one diagnostic) as an analyzer read it, before grouping. */
export interface FailureCase {
  /**
   * The failure this case would be on its own, with `location` set to the innermost project frame
   * where it was raised (for a failure with no frame of its own, the test's definition).
   */
  failure: Omit<FailureInput, 'fingerprint'>;
  /** Exception or assertion type as the tool names it (`KeyError`, `TypeError`); absent when it names none. */
  type?: string;
  /** The exception's or assertion's own message, without the stack. */
  message: string;
}

/**
 * Groups failures by root cause. This is the one policy of every first-party analyzer (pytest,
 * Jest, CTest), and third-party analyzers are welcome to it:
 *
 * Failures with the same error signature at the same innermost project frame are one group.
 * The signature is the kind, the exception or assertion type, and the message normalised by
 * `normalizeMessage` (numbers, addresses, quoted values, absolute and temporary paths taken out).
 * The frame is the failure's `location`: file and enclosing symbol, not the line.
 *
 * What follows from it:
 * - A bug that raises inside a function explains every test that reaches it, across test files
 *   and across parametrised cases (pytest `[..]` ids, Jest `test.each`, GoogleTest `TEST_P`)
 *   whose messages differ only in values: one group, one fixer conversation.
 * - An assertion fails in the test that makes it, so its innermost frame is that test: the cases
 *   of one parametrised test merge, but two tests that assert on the same wrong result stay two
 *   groups, since nothing in the failures says they share a cause. A shared assertion helper is
 *   a shared frame, and its failures merge.
 * - Two bugs give two groups even when they raise the same exception type with the same message,
 *   as long as they are raised in different functions.
 *
 * The group keeps the first case's failure (title, location, evidence, details), lists every test
 * it explains in `tests`, in the order they came, gathers the diagnostics of all its cases, and
 * carries the signature's fingerprint: stable across attempts, so the engine can tell that a
 * patch left the same cause in place.
 */
export function groupFailures(cases: readonly FailureCase[]): FailureInput[] {
  const groups = new Map<string, FailureInput>();
  for (const { failure, type, message } of cases) {
    const fingerprint = failureFingerprint({ kind: failure.kind, type, message, frame: failure.location });
    const group = groups.get(fingerprint);
    if (!group) {
      groups.set(fingerprint, {
        ...failure,
        tests: [...failure.tests],
        diagnostics: [...(failure.diagnostics ?? [])],
        fingerprint,
      });
      continue;
    }
    for (const test of failure.tests) if (!group.tests.includes(test)) group.tests.push(test);
    for (const d of failure.diagnostics ?? [])
      if (!group.diagnostics!.includes(d)) group.diagnostics!.push(d);
    if (failure.blocksAll) group.blocksAll = true;
  }
  return [...groups.values()];
}
