#include "common.h"

TEST(Area, Rectangle) {
  EXPECT_EQ(area(2, 3), 6);
}

TEST(Perimeter, Rectangle) {
  EXPECT_EQ(geom_perimeter(2, 3), 10);
}

TEST(Diagonal, Rectangle) {
  EXPECT_EQ(geom_api_diagonal_squared(3, 4), 25);
}

TEST(Clamp, High) {
  EXPECT_EQ(clamp(15, 0, 10), 10);
}

TEST(Halve, Even) {
  EXPECT_EQ(halve(8), 4);
}

TEST(First, Empty) {
  EXPECT_EQ(first_or_zero(nullptr, 0), 0);
}

TEST(Steps, Odd) {
  EXPECT_EQ(steps_to_zero(5), 3);
}
