/**
 * A test id of a JavaScript runner: `<project-relative file>::<full name>`, reversible into a
 * selection. A test of a named project of the tool (a Jest displayName, a Vitest `test.projects`
 * entry) is `[<project>] <file>::<full name>`: one file may run in several projects, and each of
 * its runs is a test of its own. The shared JavaScript analyzer reads both runners' ids so.
 *
 * Jest and Vitest run two tests of one full name in one file (two `it('adds')` in one describe,
 * a `test.each` whose title names no value) as two tests. Their ids differ by an occurrence mark
 * (see `distinctNames`): the first keeps the full name, the second and later get ` #2`, ` #3` in
 * the order the tool collected them, which is their order in the file. `fullName` here is the
 * name with its mark, as `distinctNames` gives it.
 */
export function testId(file: string, fullName: string, project?: string): string {
  return `${project ? `[${project}] ` : ''}${file}::${fullName}`;
}

const PROJECT = /^\[([^\]]+)\] (.*::.*)$/s;
const OCCURRENCE = /^(.*) #([1-9]\d*)$/s;

/** What an id names: the file, the full name without its occurrence mark, and which occurrence. */
export interface TestPlace {
  file: string;
  /** Empty for a whole file. */
  fullName: string;
  project?: string;
  /** From a ` #<n>` mark (n of 2 or more): the n-th test of this full name in the file. */
  occurrence?: number;
}

export function parseId(id: string): TestPlace {
  const inProject = PROJECT.exec(id);
  const rest = inProject ? inProject[2]! : id;
  const at = rest.indexOf('::');
  const file = at < 0 ? rest : rest.slice(0, at);
  const name = at < 0 ? '' : rest.slice(at + 2);
  const mark = OCCURRENCE.exec(name);
  const place: TestPlace =
    mark && Number(mark[2]) >= 2
      ? { file, fullName: mark[1]!, occurrence: Number(mark[2]) }
      : { file, fullName: name };
  return inProject ? { ...place, project: inProject[1]! } : place;
}

/**
 * The full names a test name pattern has to match to run the test of `place`. A marked id may
 * also be a test whose own title ends in ` #<n>` ("fixes issue #2"): the pattern runs both, and
 * the results, whose ids `distinctNames` gives again, tell which one was asked for.
 */
export function selectedNames(place: TestPlace): string[] {
  return place.occurrence === undefined
    ? [place.fullName]
    : [place.fullName, `${place.fullName} #${place.occurrence}`];
}

/**
 * The names that go into the ids of one file's tests, given their full names in the order the
 * tool collected them (every test of the file, skipped ones too, so that a run of a selection
 * gives the ids a run of the whole file gives). The first test of a full name keeps it; the
 * k-th gets ` #k`, or the next free number when a test of the file is itself named so. Adding,
 * removing or moving a test of another name leaves every id as it was; one of the same name
 * shifts the marks of those after it.
 */
export function distinctNames(fullNames: readonly string[]): string[] {
  const taken = new Set(fullNames);
  const seen = new Map<string, { count: number; mark: number }>();
  return fullNames.map((name) => {
    const s = seen.get(name);
    if (!s) {
      seen.set(name, { count: 1, mark: 1 });
      return name;
    }
    s.count += 1;
    let mark = Math.max(s.count, s.mark + 1);
    while (taken.has(`${name} #${mark}`)) mark += 1;
    s.mark = mark;
    const distinct = `${name} #${mark}`;
    taken.add(distinct);
    return distinct;
  });
}

export function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
