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
  /**
   * The functions of the code under test the evidence points at, when the analyzer can name them:
   * for a failure raised in the code under test, the innermost frame there; for one raised in the
   * test itself (an assertion, a call that raised in the test's own body), the code under test
   * called on the failing line, resolved through the analyzer's call graph. Absent or empty when it
   * names none (a failing line that calls no project function): the case is then grouped by its
   * message and frame.
   */
  suspect?: ReadonlyArray<{ file: string; symbol?: string }>;
}

/** Tests a group lists in its evidence besides the first, at most. */
const MAX_LISTED = 10;

/**
 * Groups failures by root cause. This is the one policy of every first-party analyzer (pytest,
 * Jest, CTest), and third-party analyzers are welcome to it:
 *
 * Failures that point at the same suspect in the code under test and fail the same way are one
 * group: the same kind, the same exception type (assertions of any matcher count as one type),
 * the same suspect (`FailureCase.suspect`). Values never take part: not the message, not the
 * test, not the parametrised case.
 *
 * A failure with no suspect (its failing line calls no function of the project, a build or
 * collection error) is grouped by its error signature at its innermost project frame: the kind,
 * the type, and the message normalised by `normalizeMessage` (numbers, addresses, quoted values,
 * absolute and temporary paths taken out), at the failure's `location` (file and enclosing
 * symbol, not the line).
 *
 * What follows from it:
 * - A bug that raises inside a function, or that returns a wrong value to the assertions of
 *   several tests, explains every one of them, across test files and parametrised cases (pytest
 *   `[..]` ids, Jest `test.each`, GoogleTest `TEST_P`): one group, one fixer conversation.
 * - Two bugs in two functions give two groups, even when they raise the same exception type with
 *   the same message. A test whose failing line calls two functions points at both, and merges
 *   only with tests that point at the same two.
 *
 * The group keeps the first case's failure (title, location, details), lists every test it
 * explains in `tests`, in the order they came, gathers the diagnostics of all its cases, adds to
 * its evidence how each further test failed (so one request carries the evidence of all), and
 * carries the signature's fingerprint: stable across attempts, so the engine can tell that a
 * patch left the same cause in place.
 */
export function groupFailures(cases: readonly FailureCase[]): FailureInput[] {
  const groups = new Map<string, { group: FailureInput; more: string[] }>();
  for (const { failure, type, message, suspect } of cases) {
    const useSuspect = (failure.kind === 'assertion' || failure.kind === 'exception') && suspect?.length;
    const fingerprint = failureFingerprint({
      kind: failure.kind,
      type,
      message,
      frame: failure.location,
      ...(useSuspect ? { suspect } : {}),
    });
    const found = groups.get(fingerprint);
    if (!found) {
      groups.set(fingerprint, {
        group: {
          ...failure,
          tests: [...failure.tests],
          diagnostics: [...(failure.diagnostics ?? [])],
          fingerprint,
        },
        more: [],
      });
      continue;
    }
    const { group, more } = found;
    for (const test of failure.tests)
      if (!group.tests.includes(test)) {
        group.tests.push(test);
        more.push(`- ${test}: ${firstLine(message, failure.title)}`);
      }
    for (const d of failure.diagnostics ?? [])
      if (!group.diagnostics!.includes(d)) group.diagnostics!.push(d);
    if (failure.blocksAll) group.blocksAll = true;
  }
  return [...groups.values()].map(({ group, more }) => (more.length === 0 ? group : withMore(group, more)));
}

function firstLine(message: string, title: string): string {
  const line = (message.split('\n').find((l) => l.trim() !== '') ?? title).trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The group's evidence, and how each of its further tests failed. */
function withMore(group: FailureInput, more: readonly string[]): FailureInput {
  const listed = more.slice(0, MAX_LISTED);
  const rest = more.length - listed.length;
  const lines = [
    `The same cause fails ${more.length} more test(s):`,
    ...listed,
    ...(rest > 0 ? [`- and ${rest} more`] : []),
  ];
  return { ...group, evidence: `${group.evidence}\n\n${lines.join('\n')}` };
}
