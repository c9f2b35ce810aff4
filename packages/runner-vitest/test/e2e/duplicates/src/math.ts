export function add(a: number, b: number): number {
  return a < 0 ? a - b : a + b;
}

export function subtract(a: number, b: number): number {
  return Math.abs(a - b);
}

export function double(n: number): number {
  return n * 2;
}
