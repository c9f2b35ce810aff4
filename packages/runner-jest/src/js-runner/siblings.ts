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
}

/**
 * The tests of one run that ran past their limit, the first of each family. A test that starts
 * after one of its family did gets the shorter sibling limit: when one case of a `test.each`
 * hangs, the others often hang too, and each would cost the whole limit again.
 */
export class HangMemory {
  private readonly eaches = new Map<string, { id: string; at: number }>();
  private readonly files = new Map<string, { id: string; at: number }>();

  record(id: string, family: Family, at: number): void {
    if (family.each !== undefined && !this.eaches.has(family.each)) this.eaches.set(family.each, { id, at });
    if (!this.files.has(family.file)) this.files.set(family.file, { id, at });
  }

  /** The first of the family that ran past its limit at or before `since` (a test running beside it keeps its limit). */
  before(family: Family, since: number): Hung | undefined {
    const each = family.each === undefined ? undefined : this.eaches.get(family.each);
    if (each && each.at <= since) return { id: each.id, scope: 'each' };
    const file = this.files.get(family.file);
    return file && file.at <= since ? { id: file.id, scope: 'file' } : undefined;
  }
}

/**
 * A test's limit once `after` of its family ran past its own: the runner option
 * `rerunTimeoutMs` at most. A test that declares its own timeout keeps the limit it has.
 */
export function siblingLimit(
  limit: Limit,
  after: Hung | undefined,
  rerunTimeoutMs: number,
  declared: boolean,
): Limit {
  if (!after || declared || rerunTimeoutMs >= limit.ms) return limit;
  const first =
    after.scope === 'each'
      ? `another case of the same test.each, ${after.id}, ran past its limit first`
      : `another test of the same file, ${after.id}, ran past its limit first`;
  return {
    ms: rerunTimeoutMs,
    why: `the limit a test gets once ${first} in this run: the runner option "rerunTimeoutMs"`,
    sibling: { after: after.id, scope: after.scope, wholeMs: limit.ms },
  };
}
