#include <assert.h>
#include "stack.h"

int stack_pop(int *items, int *size) {
  assert(*size > 0 && "pop from an empty stack");
  *size -= 1;
  return items[*size];
}
