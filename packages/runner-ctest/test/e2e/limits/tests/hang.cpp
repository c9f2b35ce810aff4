#include <chrono>
#include <cstdio>
#include <thread>
#include <gtest/gtest.h>

static void forever() {
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

TEST(Hang, Before) { EXPECT_TRUE(true); }
TEST(Hang, Forever) { forever(); }
TEST(Hang, After) { EXPECT_TRUE(true); }

// Hangs only while the flag file exists: it passes in a full run and hangs in a later re-run.
TEST(Hang, WhenFlagged) {
  if (std::FILE* f = std::fopen(HANG_FLAG, "r")) {
    std::fclose(f);
    forever();
  }
}
