#include <gtest/gtest.h>

#include "units.h"

TEST(Units, WholeCentimetres) { EXPECT_EQ(mm_to_cm(120), 12); }

TEST(Units, RoundsHalfUp) { EXPECT_EQ(mm_to_cm(125), 13); }

TEST(Units, Describes) { EXPECT_EQ(describe_cm(12), "12 cm"); }
