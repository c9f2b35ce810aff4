const { add } = require('./core');

function double(x) {
  return add(x, x);
}

module.exports = { double };
