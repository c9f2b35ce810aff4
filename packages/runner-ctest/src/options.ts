import { z } from '@suture/core';

/** suture's own build folder, so the user's build is never disturbed. */
export const DEFAULT_BUILD_DIR = 'build-suture';

/**
 * The default limit of one test. The slowest tests of the real projects suture is measured on
 * (bench/real-projects.mjs), in Debug builds on a loaded 2-core machine: cJSON's parse_hex4 0.12 s,
 * tinyxml2's xmltest 0.74 s, yaml-cpp's RegExTest.OperatorOr 4.9 s (its next is 1.4 s). 30 s is
 * six times the slowest, and a hang costs 30 s instead of CTest's own 1500 s. The pytest runner
 * allows 60 s, where a test may start servers and interpreters; Jest allows 30 s for a test that
 * blocks its worker.
 */
export const DEFAULT_TEST_TIMEOUT_MS = 30_000;

export const CtestOptionsSchema = z
  .object({
    /** Build folder, relative to the project root. suture's own by default. */
    buildDir: z.string().min(1).default(DEFAULT_BUILD_DIR),
    /** CMake generator; default Ninja when `ninja` is on PATH, else CMake's default. */
    generator: z.string().min(1).optional(),
    cmake: z.string().min(1).default('cmake'),
    ctest: z.string().min(1).default('ctest'),
    buildType: z.string().default('Debug'),
    configureArgs: z.array(z.string()).default([]),
    buildArgs: z.array(z.string()).default([]),
    ctestArgs: z.array(z.string()).default([]),
    /** Build jobs; default the number of CPUs. */
    parallel: z.number().int().positive().optional(),
    /** Tests CTest runs at once (`ctest -j`); default the number of CPUs, 1 runs them one by one. */
    testJobs: z.number().int().positive().optional(),
    /**
     * Limit of one test in ms: a CTest entry, or one GoogleTest case inside a whole test binary
     * registered as one entry (the case that started and never ended is the one reported). 0
     * turns it off. A `TIMEOUT` property the project sets on an entry wins. Once a test reaches
     * it, the tests of the same binary that start later in the run (the other values of a
     * `TEST_P` first among them) get `rerunTimeoutMs` at most.
     */
    testTimeoutMs: z.number().int().nonnegative().default(DEFAULT_TEST_TIMEOUT_MS),
    /**
     * The least limit a test gets in a re-run of selected tests (flaky triage, a fix's
     * validation), in ms. Such a re-run gives each test 5x its measured duration, at least this,
     * at most `testTimeoutMs`, so a fix that makes a test hang costs seconds, not minutes. A test
     * that ran past its limit before and was never measured gets this limit in a re-run. It is
     * also the limit, for the rest of a run, of the tests of a binary that start after one of its
     * tests reached its limit (a `TEST_P` whose 9 values hang costs one whole limit and then this
     * per value); at `testTimeoutMs` or above, every test keeps the whole limit.
     */
    rerunTimeoutMs: z.number().int().positive().default(10_000),
  })
  .strict();

export type CtestOptions = z.input<typeof CtestOptionsSchema>;
export type ResolvedCtestOptions = z.output<typeof CtestOptionsSchema>;

/**
 * Parses the runner options. `testTimeout` (seconds) was renamed `testTimeoutMs` (ms), as in the
 * other runners: an old config is told so instead of reading "unrecognized key".
 */
export function parseCtestOptions(options: unknown): ResolvedCtestOptions {
  if (options && typeof options === 'object' && 'testTimeout' in options) {
    const seconds = (options as { testTimeout: unknown }).testTimeout;
    throw new Error(
      `the runner option "testTimeout" was renamed "testTimeoutMs" and is now in milliseconds: write "testTimeoutMs": ${typeof seconds === 'number' ? seconds * 1000 : '<ms>'}`,
    );
  }
  return CtestOptionsSchema.parse(options ?? {});
}
