#include <cstdio>

std::string describe_cm(int cm) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%d cm", cm);
  return std::string(buffer);
}
