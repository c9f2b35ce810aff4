#include "calc.h"

int add(int a, int b) { return a + b; }

int scale(int value, int factor) {
  // off by one for factors above 2
  return factor > 2 ? value * factor + 1 : value * factor;
}

int deref(const int* p) { return *p; }
