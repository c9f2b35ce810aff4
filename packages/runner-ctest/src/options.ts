import { z } from '@suture/core';

/** suture's own build folder, so the user's build is never disturbed. */
export const DEFAULT_BUILD_DIR = 'build-suture';

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
    /** Default per-test timeout in seconds passed to ctest (a test's TIMEOUT property wins). */
    testTimeout: z.number().int().positive().default(300),
  })
  .strict();

export type CtestOptions = z.input<typeof CtestOptionsSchema>;
export type ResolvedCtestOptions = z.output<typeof CtestOptionsSchema>;
