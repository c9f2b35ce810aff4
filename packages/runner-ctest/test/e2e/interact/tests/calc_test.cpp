#include <gtest/gtest.h>

#include "calc.h"

TEST(Calc, Twice) { EXPECT_EQ(twice(4), 8); }

TEST(Calc, Adds) { EXPECT_EQ(add(2, 3), 5); }

TEST(Calc, AddsZero) { EXPECT_EQ(add(0, 0), 0); }
