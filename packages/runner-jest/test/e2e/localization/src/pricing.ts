export function discount(price: number, rate: number): number {
  return price * (1 - rate);
}

export function tax(price: number, rate: number): number {
  return price * (1 + rate);
}
