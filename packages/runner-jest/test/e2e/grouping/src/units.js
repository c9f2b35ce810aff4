const GRAMS = { g: 1, kg: 1000, lb: 453.6 };

function factorOf(unit) {
  const factor = GRAMS[unit];
  if (factor === undefined) throw new RangeError(`no entry for "${unit}"`);
  return factor;
}

function toGrams(quantity, unit) {
  return quantity * factorOf(unit);
}

function parseWeight(text) {
  const [, quantity, unit] = /^(\d+(?:\.\d+)?)\s*(\w+)$/.exec(text);
  return toGrams(Number(quantity), unit);
}

module.exports = { factorOf, toGrams, parseWeight };
