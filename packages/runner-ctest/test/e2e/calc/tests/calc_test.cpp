#include <gtest/gtest.h>

#include "calc.h"

TEST(Calc, Adds) { EXPECT_EQ(add(2, 3), 5); }

TEST(Calc, Scales) {
  EXPECT_EQ(scale(2, 2), 4);
  EXPECT_EQ(scale(2, 3), 6);
}

TEST(Calc, Crashes) { EXPECT_EQ(deref(nullptr), 0); }

class Factor : public ::testing::TestWithParam<int> {};
TEST_P(Factor, KeepsZero) { EXPECT_EQ(scale(0, GetParam()), 0); }
INSTANTIATE_TEST_SUITE_P(Factors, Factor, ::testing::Values(1, 3));
