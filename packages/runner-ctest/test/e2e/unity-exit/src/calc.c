#include "calc.h"

#include <stdlib.h>

int add(int a, int b) {
  return a - b;
}

int twice(int a) { return a * 2; }
