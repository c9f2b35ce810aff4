function cents(amount) {
  return Math.round(amount * 10);
}

module.exports = { cents };
