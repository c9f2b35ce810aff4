const { discount } = require('./pricing');

function subtotal(items) {
  return items.reduce((sum, item) => sum + item.price * item.qty, 0);
}

function total(items) {
  const amount = subtotal(items);
  return amount - discount(amount);
}

module.exports = { subtotal, total };
