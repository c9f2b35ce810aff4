#include <cstdio>

int twice(int x);

static int failures = 0;

// a test framework of its own, which names a failed check as path(line): expression
#define CHECK(expr)                                               \
  do {                                                            \
    if (!(expr)) {                                                \
      std::printf("%s(%d): %s\n", __FILE__, __LINE__, #expr);    \
      failures++;                                                 \
    }                                                             \
  } while (0)

int main() {
  // many checks that pass come first, as a real suite's do
  for (int i = 0; i < 300; i++) {
    CHECK(twice(i) == 2 * i);
    std::printf("Testing twice/%d: OK\n", i);
  }
  CHECK(twice(21) == 42);
  std::printf("%d failure(s)\n", failures);
  return failures == 0 ? 0 : 1;
}
