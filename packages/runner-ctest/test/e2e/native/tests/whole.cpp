#include <chrono>
#include <cstdio>
#include <thread>
#include <gtest/gtest.h>

TEST(Whole, Passes) { EXPECT_EQ(2 * 2, 4); }
TEST(Whole, Fails) { EXPECT_EQ(2 * 2, 5) << "arithmetic"; }

class WParam : public ::testing::TestWithParam<int> {};
TEST_P(WParam, IsOdd) { EXPECT_EQ(GetParam() % 2, 1); }
INSTANTIATE_TEST_SUITE_P(Vals, WParam, ::testing::Values(1, 4));

template <typename T>
class WTyped : public ::testing::Test {};
using WTypes = ::testing::Types<short, long>;
TYPED_TEST_SUITE(WTyped, WTypes);
TYPED_TEST(WTyped, HasSize) { EXPECT_GT(sizeof(TypeParam), 0u); }

// Passes only once the runner has reported a result while this binary still runs: the test that
// receives the first result creates the marker. Results sent at the end would never create it.
TEST(Live, SeesAnEarlierResult) {
  for (int i = 0; i < 600; ++i) {
    if (std::FILE* f = std::fopen(LIVE_MARKER, "r")) {
      std::fclose(f);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  FAIL() << "no test result was reported while this test ran";
}

TEST(Whole, DISABLED_Later) { FAIL() << "disabled"; }
