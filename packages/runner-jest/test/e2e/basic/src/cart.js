const { discount } = require('./pricing');

function subtotal(items) {
  return items.reduce((sum, item) => sum + item.price * item.qty, 0);
}

function total(items) {
  const amount = subtotal(items);
  return amount - discount(amount);
}

function label(items) {
  return `${items.length} items: ${totl(items)}`;
}

module.exports = { subtotal, total, label };
