#include <gtest/gtest.h>
#include "hang.h"

class Hangs : public ::testing::TestWithParam<int> {};
TEST_P(Hangs, Forever) { forever(); }
INSTANTIATE_TEST_SUITE_P(Nine, Hangs, ::testing::Range(0, 9));
