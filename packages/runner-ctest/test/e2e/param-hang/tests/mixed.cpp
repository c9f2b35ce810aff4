#include <gtest/gtest.h>
#include "hang.h"

class Mixed : public ::testing::TestWithParam<int> {};
TEST_P(Mixed, Case) {
  if (GetParam() == 1) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    EXPECT_EQ(45, 9 * 10 / 2);
    return;
  }
  forever();
}
INSTANTIATE_TEST_SUITE_P(Three, Mixed, ::testing::Range(0, 3));

TEST(Later, Hangs) { forever(); }
