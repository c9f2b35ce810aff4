#include <gtest/gtest.h>

TEST(Disc, Passes) { EXPECT_EQ(1 + 1, 2); }

class Param : public ::testing::TestWithParam<int> {};
TEST_P(Param, IsEven) { EXPECT_EQ(GetParam() % 2, 0); }
INSTANTIATE_TEST_SUITE_P(Nums, Param, ::testing::Values(2, 3));

template <typename T>
class Typed : public ::testing::Test {};
using Types = ::testing::Types<int, char>;
TYPED_TEST_SUITE(Typed, Types);
TYPED_TEST(Typed, IsSmall) { EXPECT_LT(sizeof(TypeParam), 2u); }
