const { subtotal, total } = require('../src/cart');

describe('cart', () => {
  test('subtotal adds lines', () => {
    expect(subtotal([{ price: 2, qty: 3 }])).toBe(6);
  });

  test('total applies the discount from 100', () => {
    expect(total([{ price: 100, qty: 1 }])).toBe(90);
  });

  test('small orders pay the subtotal', () => {
    expect(total([{ price: 20, qty: 2 }])).toBe(40);
  });
});
