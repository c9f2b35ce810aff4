#include <cassert>
#include <cstdlib>
#include <stdexcept>
#include <thread>
#include <gtest/gtest.h>
#include "stack.h"

static void check_ratio(int n) {
  if (n < 0) std::abort();
}

static int parse_or_throw(int n) noexcept {
  if (n == 0) throw std::runtime_error("zero is not allowed");
  return n;
}

TEST(Guards, Passes) { EXPECT_EQ(1, 1); }

TEST(Guards, Aborts) { check_ratio(-1); }

TEST(Guards, AssertsInCpp) {
  int size = 0;
  int items[1] = {0};
  stack_pop(items, &size);
}

TEST(Guards, Terminates) { EXPECT_EQ(parse_or_throw(0), 0); }

TEST(Guards, ThreadThrows) {
  std::thread t([] { throw std::logic_error("worker failed"); });
  t.join();
}
