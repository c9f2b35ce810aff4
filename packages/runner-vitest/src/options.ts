import { z } from '@suture/core';

export const VitestOptionsSchema = z
  .object({
    /** The Vitest package folder to run (default: `vitest` resolved from the project root). */
    vitestDir: z.string().min(1).optional(),
    /** Vitest config file (Vitest's --config, given to Vitest without appearing in the tests' process.argv). */
    config: z.string().min(1).optional(),
    /**
     * Vitest arguments, as typed after `vitest run` on the command line: parsed by Vitest's own
     * parser, and what the tests see in process.argv under the threads pool, as with a plain
     * `vitest run <args>`.
     */
    args: z.array(z.string()).default([]),
    /** Extra environment variables for Vitest (a `PATH` here also picks the `node` that runs it). */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Per-test limit in ms. Given to Vitest as its testTimeout (async tests fail with Vitest's own
     * "Test timed out"), and a test still running this long after it started (plus a grace for
     * Vitest's own timer) is stopped, also one that blocks its worker with synchronous code, which
     * Vitest cannot stop. Unset: Vitest's testTimeout from the project's config (5 s by default)
     * for async tests, and 30 s for a test that blocks. A test that declares a longer timeout
     * (third argument of test(), vi.setConfig) gets that one.
     */
    testTimeoutMs: z.number().int().positive().optional(),
  })
  .strict();

export type VitestOptions = z.input<typeof VitestOptionsSchema>;
export type ResolvedVitestOptions = z.output<typeof VitestOptionsSchema>;
