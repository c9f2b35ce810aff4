#pragma once
#include <vector>

int last(const std::vector<int>& values, int count);
