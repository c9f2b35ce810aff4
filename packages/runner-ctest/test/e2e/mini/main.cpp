#include <cstdio>

int main() {
#ifdef NDEBUG
  std::puts("mini: release build");
#else
  std::puts("mini: debug build");
#endif
  return 0;
}
