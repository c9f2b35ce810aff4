// Not built into the library: the tests include it to reach its static helpers.
static int halve(int value) {
  return value / 2;
}
