#include "histogram.h"

#include <cassert>

int bucket_of(int value, int width, int buckets) {
  int bucket = value / width;
  assert(bucket >= 0 && bucket < buckets && "value outside the histogram");
  return bucket;
}

std::vector<int> histogram(const std::vector<int>& values, int width, int buckets) {
  std::vector<int> counts(buckets, 0);
  for (int v : values) counts[bucket_of(v, width, buckets)]++;
  return counts;
}

int scaled(int value, int factor) { return value * factor; }
