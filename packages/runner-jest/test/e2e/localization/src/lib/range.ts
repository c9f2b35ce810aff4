export function span(values: number[]): number {
  return Math.max(...values) - Math.min(...values);
}
