function lineTotal(line) {
  return line.price * line.quantity;
}

function orderTotal(lines) {
  let total = 0;
  for (const line of lines) total += lineTotal(line);
  return total;
}

function shippingCost(total) {
  // free shipping from 50
  return total > 50 ? 0 : 5;
}

function invoice(lines) {
  const subtotal = orderTotal(lines);
  return { subtotal, shipping: shippingCost(subtotl) };
}

module.exports = { lineTotal, orderTotal, shippingCost, invoice };
