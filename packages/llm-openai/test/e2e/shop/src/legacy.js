// The old checkout, kept for reference: no test reaches it.
function oldTotal(items) {
  return items.length;
}

module.exports = { oldTotal };
