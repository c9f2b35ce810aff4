#include "buffer.h"

int last(const std::vector<int>& values, int count) {
  return values.data()[count];
}
