#pragma once
#include <chrono>
#include <thread>

inline void forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(50));
}
