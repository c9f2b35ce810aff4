/** Parses `"1-4,7"` into its line numbers. */
export function parseRanges(text: string): Set<number> {
  const lines = new Set<number>();
  if (!text) return lines;
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number) as [number, number | undefined];
    for (let n = a; n <= (b ?? a); n++) lines.add(n);
  }
  return lines;
}

/** Writes line numbers as sorted ranges: `[7, 1, 2, 3, 4]` -> `"1-4,7"`. */
export function formatRanges(lines: Iterable<number>): string {
  const sorted = [...new Set(lines)].filter((n) => Number.isInteger(n) && n > 0).sort((x, y) => x - y);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    parts.push(i === j ? String(sorted[i]) : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(',');
}
