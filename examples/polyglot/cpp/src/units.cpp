#include "units.h"

int mm_to_cm(int mm) { return mm / 10; }
