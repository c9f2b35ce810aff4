const LIMITS = { short: 8, long: 40 };

function limitOf(kind) {
  const limit = LIMITS[kind];
  if (limit === undefined) throw new RangeError(`no entry for "${kind}"`);
  return limit;
}

function truncate(text, kind) {
  return text.slice(0, limitOf(kind));
}

module.exports = { limitOf, truncate };
