#include <geom/bounds.h>

int clamp(int value, int low, int high) {
  if (value < low) return low;
  if (value > high) return high;
  return value;
}

int first_or_zero(const int* values, int count) {
  if (count > 0) return values[0];
  return 0;
}
