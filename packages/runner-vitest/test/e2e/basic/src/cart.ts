export interface Line {
  price: number;
  qty: number;
}

export function subtotal(lines: Line[]): number {
  return lines.reduce((sum, l) => sum + l.price * l.qty, 0);
}

export function total(lines: Line[]): number {
  const s: number = subtotal(lines);
  if (s >= 100) throw new RangeError(`no discount rule for ${s}`);
  return s;
}
