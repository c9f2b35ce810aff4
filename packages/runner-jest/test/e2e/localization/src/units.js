exports.toCm = function (inches) {
  return Math.round(inches * 254) / 100;
};
