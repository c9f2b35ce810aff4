function add(a, b) {
  return a < 0 ? a - b : a + b;
}

function subtract(a, b) {
  return Math.abs(a - b);
}

function double(n) {
  return n * 2;
}

module.exports = { add, subtract, double };
