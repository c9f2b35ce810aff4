function label(n) {
  return 'n=' + n;
}

module.exports = { label };
