#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "histogram.h"

TEST(Histogram, CountsValues) {
  EXPECT_EQ(histogram({1, 5, 6, 19}, 5, 4), (std::vector<int>{1, 2, 0, 1}));
}

TEST(Histogram, KeepsEmptyBuckets) { EXPECT_EQ(histogram({}, 5, 3), (std::vector<int>{0, 0, 0})); }

TEST(Bucket, FirstBucket) { EXPECT_EQ(bucket_of(0, 10, 2), 0); }

class BucketOf : public ::testing::TestWithParam<int> {};
TEST_P(BucketOf, StaysInRange) { EXPECT_EQ(bucket_of(GetParam(), 10, 10), GetParam() / 10); }
INSTANTIATE_TEST_SUITE_P(Values, BucketOf, ::testing::Values(3, 42, 97));

class Scaled : public ::testing::TestWithParam<std::tuple<int, int>> {};
TEST_P(Scaled, Multiplies) {
  auto [value, factor] = GetParam();
  EXPECT_EQ(scaled(value, factor), value * factor);
}
INSTANTIATE_TEST_SUITE_P(Factors, Scaled, ::testing::Values(std::make_tuple(2, 3), std::make_tuple(4, 5), std::make_tuple(7, 2)));

TEST(Scale, ByTwo) { EXPECT_EQ(scaled(4, 2), 8); }

TEST(Scale, ByZero) {
  int none = 0;
  EXPECT_EQ(scaled(9, none), 0);
}
