const { lineTotal, orderTotal, shippingCost, invoice } = require('../src/orders');

test('a line costs price times quantity', () => {
  expect(lineTotal({ price: 3, quantity: 4 })).toBe(12);
});

test('an order adds its lines', () => {
  expect(orderTotal([{ price: 3, quantity: 4 }, { price: 1, quantity: 2 }])).toBe(14);
});

test('shipping is free from 50', () => {
  expect(shippingCost(50)).toBe(0);
});

test('an invoice carries subtotal and shipping', () => {
  expect(invoice([{ price: 10, quantity: 2 }])).toEqual({ subtotal: 20, shipping: 5 });
});
