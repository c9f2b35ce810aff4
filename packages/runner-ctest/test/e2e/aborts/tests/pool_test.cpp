#include <gtest/gtest.h>
#include "stack.h"

TEST(Pool, Fills) { EXPECT_EQ(2 + 2, 4); }

TEST(Pool, Drains) {
  int items[1] = {7};
  int size = 0;
  EXPECT_EQ(stack_pop(items, &size), 7);
}
