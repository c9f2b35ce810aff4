export function restock(count: number, amount: number): number {
  return count + amount;
}

export function reserve(count: number, amount: number): number {
  return count - amount;
}
