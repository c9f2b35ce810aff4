#include "calc.h"
#include "unity_like.h"

void test_add(void) { TEST_ASSERT_EQUAL_INT(5, add(2, 3)); }

void test_twice(void) { TEST_ASSERT_EQUAL_INT(4, twice(2)); }

int main(void) {
  UNITY_BEGIN();
  RUN_TEST(test_add);
  RUN_TEST(test_twice);
  return UNITY_END();
}
