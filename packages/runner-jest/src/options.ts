import { z } from '@suture/core';

export const JestOptionsSchema = z
  .object({
    /** Path to Jest's CLI script (default: jest/bin/jest.js resolved from the project). */
    jestBin: z.string().min(1).optional(),
    /** Jest config file (Jest's --config, given to Jest without appearing in the tests' process.argv). */
    config: z.string().min(1).optional(),
    /**
     * Jest arguments, as typed after `jest` on the command line: parsed by Jest's own parser, and
     * what the tests see in process.argv when they run in-band, as with a plain `jest <args>`.
     */
    args: z.array(z.string()).default([]),
    /** Extra environment variables for Jest. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Run Node with --experimental-vm-modules, which Jest needs for native ES modules. `auto`:
     * when package.json has "type": "module" or the Jest config lists extensionsToTreatAsEsm.
     */
    esm: z.union([z.literal('auto'), z.boolean()]).default('auto'),
    /**
     * Per-test limit in ms. Given to Jest as its testTimeout (async tests fail with Jest's own
     * "Exceeded timeout"), and a test still running this long after it started (plus a grace for
     * Jest's own timer) is stopped, also one that blocks its worker with synchronous code, which
     * Jest cannot stop. Unset: Jest's testTimeout from the project's config (5 s by default) for
     * async tests, and 30 s for a test that blocks. A test that declares a longer timeout (third
     * argument of test(), jest.setTimeout) gets that one.
     */
    testTimeoutMs: z.number().int().positive().optional(),
    /**
     * The limit in ms, for the rest of a run, of the other tests of a test file once one of its
     * tests ran past its limit (Jest's own timeout, or suture's for a test that blocks its
     * worker), the other cases of a `test.each` first among them: a file whose cases all hang
     * costs one whole limit and then this per case. A test that declares its own timeout (third
     * argument of test(), jest.setTimeout) keeps it, and at a test's whole limit or above the
     * test keeps that. A test stopped at it gets its whole limit again in a later re-run of it.
     */
    rerunTimeoutMs: z.number().int().positive().default(10_000),
    /** Run the tests in the Jest process itself, one file at a time (Jest's --runInBand). */
    runInBand: z.boolean().default(false),
  })
  .strict();

export type JestOptions = z.input<typeof JestOptionsSchema>;
export type ResolvedJestOptions = z.output<typeof JestOptionsSchema>;
