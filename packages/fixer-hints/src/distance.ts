import { editDistance } from '@suture/core/analysis';

/** `over`: equally close names of later groups that the winner beat by coming first. */
export type Pick = { ok: true; best: string; over?: string[] } | { ok: false; candidates: string[] };

function scored(name: string, candidates: Iterable<string>): Array<{ c: string; d: number }> {
  const limit = Math.max(1, Math.floor(name.length / 3));
  return [...new Set(candidates)]
    .filter((c) => c !== name)
    .map((c) => ({ c, d: editDistance(name.toLowerCase(), c.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
}

/**
 * The single closest candidate, only when it is unambiguous: within a distance that scales with
 * the name's length, and strictly closer than any other candidate.
 */
export function closest(name: string, candidates: Iterable<string>): Pick {
  return closestInOrder(name, [candidates]);
}

/**
 * The closest candidate over groups searched in order, the way CPython orders its suggestions
 * (locals, then globals, then builtins): a tie between groups goes to the earlier group, a tie
 * inside the group that wins is ambiguous. A closer name in a later group still wins.
 */
export function closestInOrder(name: string, groups: ReadonlyArray<Iterable<string>>): Pick {
  const tiers = groups.map((g) => scored(name, g));
  const best = Math.min(...tiers.flatMap((t) => t.map((x) => x.d)));
  const first = tiers.find((t) => t.some((x) => x.d === best));
  if (!first) return { ok: false, candidates: [] };
  const tied = first.filter((x) => x.d === best).map((x) => x.c);
  if (tied.length > 1) return { ok: false, candidates: tied };
  const over = [
    ...new Set(
      tiers
        .slice(tiers.indexOf(first) + 1)
        .flatMap((t) => t.filter((x) => x.d === best && x.c !== tied[0]).map((x) => x.c)),
    ),
  ];
  return { ok: true, best: tied[0]!, ...(over.length > 0 ? { over } : {}) };
}
