import type { Limit } from './limits.js';

/**
 * What a test shares with its siblings: its test file (in one project), and the `test.each` it is
 * a case of. A case of a `test.each` has the line of the `test.each` call, which its other cases
 * share; `each` is undefined when the test's line is not known.
 */
export interface Family {
  file: string;
  each?: string;
}

/** The family of a test of `file` (in `project`), declared at `line` inside `ancestors`. */
export function familyOf(
  file: string,
  project: string | undefined,
  ancestors: readonly string[],
  line: number | undefined,
): Family {
  const inFile = `${project ?? ''}\0${file}`;
  return line === undefined
    ? { file: inFile }
    : { file: inFile, each: [inFile, ...ancestors, line].join('\0') };
}

/** The test of a family that ran past its limit first, and what it shares with the test asking. */
export interface Hung {
  id: string;
  scope: 'each' | 'file';
  /** How many tests of that family (the `test.each`, or the file) ran past their limits so far. */
  count: number;
}

/**
 * The tests of one run that ran past their limit, by family. A test that starts after one of its
 * family did gets the shorter sibling limit: when one case of a `test.each` hangs, the others
 * often hang too, and each would cost the whole limit again.
 */
export class HangMemory {
  private readonly eaches = new Map<string, Array<{ id: string; at: number }>>();
  private readonly files = new Map<string, Array<{ id: string; at: number }>>();

  record(id: string, family: Family, at: number): void {
    const add = (map: Map<string, Array<{ id: string; at: number }>>, key: string): void => {
      const seen = map.get(key) ?? [];
      if (!seen.some((h) => h.id === id)) map.set(key, [...seen, { id, at }]);
    };
    if (family.each !== undefined) add(this.eaches, family.each);
    add(this.files, family.file);
  }

  /** The first of the family that ran past its limit at or before `since` (a test running beside it keeps its limit). */
  before(family: Family, since: number): Hung | undefined {
    const known = (hangs: Array<{ id: string; at: number }> | undefined) =>
      (hangs ?? []).filter((h) => h.at <= since);
    const each = known(family.each === undefined ? undefined : this.eaches.get(family.each));
    if (each.length > 0) return { id: each[0]!.id, scope: 'each', count: each.length };
    const file = known(this.files.get(family.file));
    return file.length > 0 ? { id: file[0]!.id, scope: 'file', count: file.length } : undefined;
  }
}

/** The shortest limit of a sibling once a family has hung twice. */
const REPEATED_MIN_MS = 1000;

/**
 * A test's limit once `after` of its family ran past its own: the runner option
 * `rerunTimeoutMs` at most, and a fifth of it, 1 s at least (where that is shorter), once two of
 * the family did, the first at its whole limit and another at this shorter one: by then the rest
 * of a `test.each` that blocks its worker would hang too, and a file of them would cost far more
 * than twice its limit. A test that declares its own timeout keeps the limit it has.
 */
export function siblingLimit(
  limit: Limit,
  after: Hung | undefined,
  rerunTimeoutMs: number,
  declared: boolean,
): Limit {
  if (!after || declared || rerunTimeoutMs >= limit.ms) return limit;
  const family = after.scope === 'each' ? 'of the same test.each' : 'of the same file';
  const sibling = { after: after.id, scope: after.scope, wholeMs: limit.ms, rerunMs: rerunTimeoutMs };
  const repeatedMs = Math.max(REPEATED_MIN_MS, Math.round(rerunTimeoutMs / 5));
  if (after.count >= 2 && repeatedMs < rerunTimeoutMs) {
    return {
      ms: repeatedMs,
      why: `the limit a test gets once ${after.count} tests ${family}, the first ${after.id}, ran past their limits in this run: a fifth of the runner option "rerunTimeoutMs", 1 s at least`,
      sibling: { ...sibling, repeated: after.count },
    };
  }
  const first =
    after.scope === 'each'
      ? `another case of the same test.each, ${after.id}, ran past its limit first`
      : `another test of the same file, ${after.id}, ran past its limit first`;
  return {
    ms: rerunTimeoutMs,
    why: `the limit a test gets once ${first} in this run: the runner option "rerunTimeoutMs"`,
    sibling,
  };
}
