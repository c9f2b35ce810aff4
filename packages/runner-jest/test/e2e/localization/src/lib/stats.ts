export function mean(values: number[]): number {
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}
