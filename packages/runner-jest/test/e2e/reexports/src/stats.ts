export function total(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0);
}

export default function mean(values: number[]): number {
  return total(values) / values.length;
}
