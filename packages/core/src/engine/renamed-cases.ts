import type { Failure } from '../api/contracts/failure.js';
import type { RunResult, TestResult } from '../api/contracts/run-result.js';

/** A GoogleTest value-parametrized test as CTest's gtest_discover_tests names it: `Rows/Mul.Multiplies/(2, 3, 7)`. */
const GTEST_CASE = /^([A-Za-z_]\w*\/[A-Za-z_]\w*\.[A-Za-z_]\w*)\/./s;

/**
 * The family of a parametrized case: its id less the part that names the case's values, or
 * undefined for an id that names no case. A value changed in a case's row renames the case, so a
 * re-run that asks for the old id finds nothing; asking for the family runs what the row became.
 * Two shapes are known: pytest's trailing `[...]` (`tests/t.py::test_x[2-3-6]` is of
 * `tests/t.py::test_x`), and GoogleTest's `Prefix/Suite.Test/<value>` with the value CTest
 * prints (`Rows/Mul.Multiplies/(2, 3, 7)` is of `Rows/Mul.Multiplies`). A runner that gets a
 * family in its selection runs all of its cases. Other shapes (Jest's `test.each` titles, a
 * case of a whole GoogleTest binary by index) have no family: their vanished case stays "did
 * not run".
 */
export function familyOf(id: string): string | undefined {
  // a file path may hold brackets; a test's name starts after the first `::`
  const sep = id.indexOf('::');
  if (sep < 0) {
    const gtest = GTEST_CASE.exec(id);
    if (gtest) return gtest[1];
  }
  if (!id.endsWith(']')) return undefined;
  const start = sep >= 0 ? sep + 2 : 0;
  const open = id.indexOf('[', start);
  return open > start ? id.slice(0, open) : undefined;
}

/** The failure's tests that did not run and whose family's file the proposal edited, by family. */
export function vanishedFamilies(
  failure: Failure,
  result: RunResult,
  initial: readonly TestResult[],
  edited: ReadonlySet<string>,
): Map<string, string[]> {
  const seen = new Set(result.tests.map((t) => t.id));
  const fileOf = new Map(initial.map((t) => [t.id, t.file]));
  const families = new Map<string, string[]>();
  for (const id of failure.tests) {
    const family = familyOf(id);
    const file = fileOf.get(id);
    if (seen.has(id) || !family || !file || !edited.has(file)) continue;
    families.set(family, [...(families.get(family) ?? []), id]);
  }
  return families;
}

/** The failure's selection with each vanished case asked for by its family instead. */
export function familySelection(selection: readonly string[], vanished: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const id of selection) out.add(vanished.has(id) ? familyOf(id)! : id);
  return [...out];
}

export interface RenamedCases {
  /** Each vanished id with the new cases of its family that took its place (none: it is gone). */
  renamed: Record<string, string[]>;
  /** Every case of the families that ran, old and new. */
  cases: TestResult[];
}

/**
 * What the vanished cases became in a run of their families: the family's cases that the
 * initial run did not have. A row deleted leaves no new case, so its id is still missing. Which
 * new row was which old one cannot be told: each vanished id maps to all of them.
 */
export function renamedCases(
  families: ReadonlyMap<string, readonly string[]>,
  result: RunResult,
  initial: readonly TestResult[],
): RenamedCases {
  const known = new Set(initial.map((t) => t.id));
  const renamed: Record<string, string[]> = {};
  const cases: TestResult[] = [];
  for (const [family, vanished] of families) {
    const ofFamily = result.tests.filter((t) => familyOf(t.id) === family);
    cases.push(...ofFamily);
    const fresh = ofFamily.filter((t) => !known.has(t.id)).map((t) => t.id);
    for (const id of vanished) renamed[id] = fresh;
  }
  return { renamed, cases };
}

/** The tests a whole run must report while `heals` are in place: a case a heal renamed, by what it became. */
export function expectedNow(
  ids: readonly string[],
  heals: ReadonlyArray<{ renamed?: Readonly<Record<string, readonly string[]>> }>,
): string[] {
  const renamed = new Map<string, readonly string[]>();
  for (const h of heals) for (const [id, fresh] of Object.entries(h.renamed ?? {})) renamed.set(id, fresh);
  return ids.flatMap((id) => renamed.get(id) ?? [id]);
}
