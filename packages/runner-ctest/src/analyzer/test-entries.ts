import type { RunResult, TestResult } from '@suture/core';

/** The CTest entry a test result belongs to and, inside a whole-binary entry, its case. */
export interface TestEntry {
  entry: string;
  /** The GoogleTest case or Unity test; the entry itself when the entry is the test. */
  name: string;
}

/**
 * Where a result lives, from what the runner recorded: `details.entry` for a case of a whole
 * binary (`lib::test::Suite.Name`) or a Unity test, `details.gtest` for the case an entry runs.
 * An id is never split on `::`, which an entry name may hold (yaml-cpp names its entry
 * `yaml-cpp::test`); only an id no run reported falls back to its last `::`, since GoogleTest and
 * Unity names never hold one.
 */
export function entryOf(test: Pick<TestResult, 'id' | 'details'>): TestEntry {
  const d = (test.details ?? {}) as { entry?: unknown; gtest?: unknown };
  const entry = typeof d.entry === 'string' ? d.entry : test.id;
  const inside =
    entry !== test.id && test.id.startsWith(`${entry}::`) ? test.id.slice(entry.length + 2) : undefined;
  const name = typeof d.gtest === 'string' ? d.gtest : (inside ?? test.id);
  return { entry, name };
}

function guessed(id: string): TestEntry {
  const at = id.lastIndexOf('::');
  return at < 0 ? { entry: id, name: id } : { entry: id.slice(0, at), name: id.slice(at + 2) };
}

/** The entries of the tests of the runs an analyzer has read, by test id. */
export class TestEntries {
  private readonly byId = new Map<string, TestEntry>();

  record(result: Pick<RunResult, 'tests'>): void {
    for (const t of result.tests) this.byId.set(t.id, entryOf(t));
  }

  of(id: string): TestEntry {
    return this.byId.get(id) ?? guessed(id);
  }
}
