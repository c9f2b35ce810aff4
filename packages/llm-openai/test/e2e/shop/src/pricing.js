/** Orders of 100 or more get 10% off. */
function discount(amount) {
  return amount > 100 ? amount * 0.1 : 0;
}

module.exports = { discount };
