#pragma once

#include <string>

// Converts millimetres to whole centimetres, rounding half up.
int mm_to_cm(int mm);

// "12 cm"
std::string describe_cm(int cm);
