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

/** The cases of one parametrized test: how a run is asked for them, and how its results are told. */
export interface Family {
  key: string;
  /** The id that selects every case, or undefined when only the whole suite shows them. */
  select?: string;
  has(test: TestResult): boolean;
}

/**
 * The family of a case the initial run reported: by its id's shape (`familyOf`), or else by its
 * declaration, for a runner whose case names say nothing of their test (Jest's `test.each`
 * titles): the cases it reported at the same file and line, when there are several. A single
 * test at a line is no family: a test renamed is not a row corrected.
 */
export function familyFor(id: string, initial: readonly TestResult[]): Family | undefined {
  const shaped = familyOf(id);
  if (shaped) return { key: shaped, select: shaped, has: (t) => familyOf(t.id) === shaped };
  const at = initial.find((t) => t.id === id);
  if (!at?.file || at.line === undefined) return undefined;
  const here = (t: TestResult): boolean => t.file === at.file && t.line === at.line;
  if (initial.filter(here).length < 2) return undefined;
  return { key: `${at.file}:${at.line}`, has: here };
}

/** The failure's tests that did not run and whose file the proposal edited, by family. */
export function vanishedFamilies(
  failure: Failure,
  result: RunResult,
  initial: readonly TestResult[],
  edited: ReadonlySet<string>,
): Map<string, { family: Family; ids: string[] }> {
  const seen = new Set(result.tests.map((t) => t.id));
  const fileOf = new Map(initial.map((t) => [t.id, t.file]));
  const ids = failure.tests.filter((id) => {
    const file = fileOf.get(id);
    return !seen.has(id) && file !== undefined && edited.has(file);
  });
  return familiesOf(ids, initial);
}

/** The families of vanished ids (an id of no family is left out). */
export function familiesOf(
  ids: readonly string[],
  initial: readonly TestResult[],
): Map<string, { family: Family; ids: string[] }> {
  const families = new Map<string, { family: Family; ids: string[] }>();
  for (const id of ids) {
    const family = familyFor(id, initial);
    if (!family) continue;
    const entry = families.get(family.key) ?? { family, ids: [] };
    entry.ids.push(id);
    families.set(family.key, entry);
  }
  return families;
}

/**
 * The failure's selection with each vanished case asked for by its family instead; undefined
 * (the whole suite) when a family has no id of its own.
 */
export function familySelection(
  selection: readonly string[],
  families: ReadonlyMap<string, { family: Family; ids: readonly string[] }>,
): string[] | undefined {
  const by = new Map<string, Family>();
  for (const { family, ids } of families.values()) for (const id of ids) by.set(id, family);
  if ([...by.values()].some((f) => f.select === undefined)) return undefined;
  return [...new Set(selection.map((id) => by.get(id)?.select ?? id))];
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
  families: ReadonlyMap<string, { family: Family; ids: readonly string[] }>,
  result: RunResult,
  initial: readonly TestResult[],
): RenamedCases {
  const known = new Set(initial.map((t) => t.id));
  const renamed: Record<string, string[]> = {};
  const cases: TestResult[] = [];
  for (const { family, ids } of families.values()) {
    const ofFamily = result.tests.filter((t) => family.has(t));
    cases.push(...ofFamily);
    const fresh = ofFamily.filter((t) => !known.has(t.id)).map((t) => t.id);
    for (const id of ids) renamed[id] = fresh;
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
