import type { RunResult } from '../api/contracts/run-result.js';

/**
 * The passing tests of each test file, per project, as of the latest run an analyzer read: the
 * other side of the spectrum that ranks a scope (what the failing tests reach and the passing
 * tests of the same files do not). A re-run of selected tests updates only the tests it ran.
 */
export class PassingTests {
  private readonly byRoot = new Map<string, Map<string, Set<string>>>();

  /** Reads a run's results; `fileOf` names the test file a test is in (undefined: unknown). */
  record(
    root: string,
    result: RunResult,
    fileOf: (test: RunResult['tests'][number]) => string | undefined,
  ): void {
    let files = this.byRoot.get(root);
    if (!files) this.byRoot.set(root, (files = new Map()));
    for (const t of result.tests) {
      const file = fileOf(t);
      if (!file) continue;
      let ids = files.get(file);
      if (!ids) files.set(file, (ids = new Set()));
      if (t.status === 'passed') ids.add(t.id);
      else ids.delete(t.id);
    }
  }

  /** Every passing test of the project, file by file. */
  all(root: string): string[] {
    return [...(this.byRoot.get(root)?.values() ?? [])].flatMap((ids) => [...ids]);
  }

  /** Passing tests of a test file, in the order they were first seen. */
  of(root: string, file: string): string[] {
    return [...(this.byRoot.get(root)?.get(file) ?? [])];
  }
}
