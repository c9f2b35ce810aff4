function discount(amount) {
  return amount > 100 ? amount * 0.1 : 0;
}

module.exports = { discount };
