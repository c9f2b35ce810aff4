#include <gtest/gtest.h>

#include <tuple>

#include "calc.h"

class Mul : public ::testing::TestWithParam<std::tuple<int, int, int>> {};

TEST_P(Mul, Multiplies) {
  auto [a, b, product] = GetParam();
  EXPECT_EQ(mul(a, b), product);
}

INSTANTIATE_TEST_SUITE_P(Rows, Mul, ::testing::Values(
    std::make_tuple(1, 1, 1),
    std::make_tuple(2, 3, 7),
    std::make_tuple(3, 4, 12)));
