#include "buffer.h"

int main() {
  std::vector<int> values{1, 2, 3};
  return last(values, 3) == 3 ? 0 : 1;
}
