export function add(a: number, b: number): number {
  return a - b;
}

export function double(n: number): number {
  return n * 2;
}
