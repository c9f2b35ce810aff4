/**
 * What an analyzer's rule saw in one version of a file: a key that two versions share when they
 * hold the same thing (`call gc.get_objects`), where, and why it matters to a reader.
 */
export interface Finding {
  key: string;
  /** 1-based line. */
  line: number;
  /** What it does, for a refusal's reason: `gc.get_objects() walks every live object, the test framework's too`. */
  reason: string;
  /**
   * The text around it (its statement), so that a finding kept as it was is matched to itself
   * before any other finding of the same key.
   */
  context?: string;
}

/**
 * The findings `after` holds that `before` did not: what an edit added. A finding the edit kept
 * (same key, same context) is matched first, then any other of its key, so moving code or adding
 * a second copy of a line counts only the copy.
 */
export function addedFindings(before: readonly Finding[], after: readonly Finding[]): Finding[] {
  const left = [...before];
  const unmatched: Finding[] = [];
  for (const f of after) {
    const i = left.findIndex((b) => b.key === f.key && b.context === f.context);
    if (i >= 0) left.splice(i, 1);
    else unmatched.push(f);
  }
  const added: Finding[] = [];
  for (const f of unmatched) {
    const i = left.findIndex((b) => b.key === f.key);
    if (i >= 0) left.splice(i, 1);
    else added.push(f);
  }
  return added.sort((a, b) => a.line - b.line);
}

/**
 * A `checkTampering` answer from the findings an edit added: the first with its line, and how
 * many more there are; undefined when it added none.
 */
export function tamperingFrom(before: readonly Finding[], after: readonly Finding[]): string | undefined {
  const added = addedFindings(before, after);
  const first = added[0];
  if (!first) return undefined;
  const more = added.length > 1 ? ` (and ${added.length - 1} more)` : '';
  return `line ${first.line} adds ${first.reason}${more}`;
}
