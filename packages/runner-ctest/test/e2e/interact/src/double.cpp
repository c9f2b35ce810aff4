#include "calc.h"

int twice(int x) {
  return add(x, x);
}
