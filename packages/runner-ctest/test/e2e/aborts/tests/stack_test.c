#include <stdio.h>
#include "stack.h"

int main(void) {
  int items[2] = {1, 2};
  int size = 1;
  printf("popped %d\n", stack_pop(items, &size));
  printf("popped %d\n", stack_pop(items, &size));
  return 0;
}
