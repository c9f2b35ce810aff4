#include <cstdio>

int main() {
  std::puts("plain check ok");
  return 0;
}
