#include <gtest/gtest.h>

#include "calc.h"

TEST(All, One) { EXPECT_EQ(add(1, 1), 2); }
TEST(All, Two) { EXPECT_EQ(scale(1, 3), 3); }
TEST(All, Three) { EXPECT_EQ(add(2, 2), 5); }
