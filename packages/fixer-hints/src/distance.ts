/** Optimal string alignment distance (Damerau-Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

export type Pick = { ok: true; best: string } | { ok: false; candidates: string[] };

/**
 * The single closest candidate, only when it is unambiguous: within a distance that scales with
 * the name's length, and strictly closer than any other candidate.
 */
export function closest(name: string, candidates: Iterable<string>): Pick {
  const limit = Math.max(1, Math.floor(name.length / 3));
  const scored = [...new Set(candidates)]
    .filter((c) => c !== name)
    .map((c) => ({ c, d: editDistance(name.toLowerCase(), c.toLowerCase()) + (c.toLowerCase() === name.toLowerCase() ? 0 : 0) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c));
  if (scored.length === 0) return { ok: false, candidates: [] };
  if (scored.length > 1 && scored[1]!.d === scored[0]!.d) return { ok: false, candidates: scored.filter((x) => x.d === scored[0]!.d).map((x) => x.c) };
  return { ok: true, best: scored[0]!.c };
}
