#pragma once
#include <vector>

int bucket_of(int value, int width, int buckets);
std::vector<int> histogram(const std::vector<int>& values, int width, int buckets);
int scaled(int value, int factor);
