import { describe, expect, it } from 'vitest';
import { subtotal, total, type Line } from '../src/cart';

const lines: Line[] = [{ price: 50, qty: 2 }];

describe('cart', () => {
  it('subtotal adds lines', () => {
    expect(subtotal(lines)).toBe(100);
  });

  it('total applies the discount from 100', () => {
    expect(total(lines)).toBe(90);
  });

  it('adds 2 + 2 = 5', () => {
    expect(2 + 2).toBe(5);
  });
});
