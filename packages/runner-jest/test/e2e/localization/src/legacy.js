function clamp(value, low, high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

const limits = { low: 0, high: 10 };

module.exports = { clamp, limits };
