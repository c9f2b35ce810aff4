#include <gtest/gtest.h>
#include "hang.h"

TEST(Other, Hangs) { forever(); }
TEST(Other, Declared) { forever(); }
