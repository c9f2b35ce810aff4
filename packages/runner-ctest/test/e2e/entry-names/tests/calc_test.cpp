#include <gtest/gtest.h>

#include "calc.h"

TEST(Twice, Doubles) { EXPECT_EQ(twice(2), 4); }

TEST(Halve, Halves) { EXPECT_EQ(halve(4), 2); }

class Sizes : public ::testing::TestWithParam<int> {};
TEST_P(Sizes, HalveUndoesTwice) { EXPECT_EQ(halve(twice(GetParam())), GetParam()); }
INSTANTIATE_TEST_SUITE_P(Small, Sizes, ::testing::Values(1, 2));
