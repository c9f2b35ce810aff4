#include "calc.h"

int twice(int value) { return value + value + 1; }

int halve(int value) { return value / 2; }
