/*
 * A few lines that report as ThrowTheSwitch's Unity does (a line per test, then its summary),
 * so the fixture builds with no third-party code: `file:line:test:PASS`, `file:line:test:FAIL:
 * message`, and `N Tests N Failures N Ignored` with OK or FAIL. Like Unity's, its summary strings
 * are separate constants in the program.
 */
#pragma once

#include <stdio.h>

static const char UnityStrResultsTests[] = " Tests ";
static const char UnityStrResultsFailures[] = " Failures ";
static const char UnityStrResultsIgnored[] = " Ignored ";

static int unity_tests, unity_failures, unity_failed_now;
static const char* unity_file;

#define UNITY_BEGIN() (unity_file = __FILE__, unity_tests = 0, unity_failures = 0)
#define RUN_TEST(fn)                                          \
  do {                                                        \
    unity_failed_now = 0;                                     \
    unity_tests++;                                            \
    fn();                                                     \
    if (!unity_failed_now) printf("%s:%d:%s:PASS\n", unity_file, __LINE__, #fn); \
  } while (0)
#define TEST_ASSERT_EQUAL_INT(expected, actual)                                               \
  do {                                                                                        \
    int e_ = (expected), a_ = (actual);                                                       \
    if (e_ != a_ && !unity_failed_now) {                                                      \
      unity_failed_now = 1;                                                                   \
      unity_failures++;                                                                       \
      printf("%s:%d:%s:FAIL: Expected %d Was %d\n", __FILE__, __LINE__, __func__, e_, a_);    \
      return;                                                                                 \
    }                                                                                         \
  } while (0)
#define UNITY_END()                                                                              \
  (printf("\n-----------------------\n%d%s%d%s0%s\n%s\n", unity_tests, UnityStrResultsTests,     \
          unity_failures, UnityStrResultsFailures, UnityStrResultsIgnored,                       \
          unity_failures ? "FAIL" : "OK"),                                                       \
   unity_failures)
