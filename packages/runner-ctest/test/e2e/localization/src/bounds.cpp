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

int steps_to_zero(int value) {
  int steps = 0;
  while (value > 0) {
    value -= 2;
    ++steps;
  }
  return steps;
}
