import { z } from '@suture/core';

export const PytestOptionsSchema = z
  .object({
    /** Python interpreter; default: the project's .venv/venv interpreter when present, else `python3`. */
    python: z.string().min(1).optional(),
    /** Extra pytest arguments, e.g. ["-x", "-m", "not slow"]; the tests see them in sys.argv. */
    args: z.array(z.string()).default([]),
    /**
     * Environment variables set for the test process on top of suture's own environment, e.g.
     * `{ "PYTHONPATH": "src" }` for a src layout (relative paths are read from the project root).
     */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Time limit of one test (setup, call and teardown), in ms; 0 turns it off. A test past it is
     * reported as a timeout with the stack where it was stuck, and the run goes on with the
     * others. A test's own `@pytest.mark.timeout(s)` (or pytest-timeout's setting) raises it.
     * Once a test reaches it, the other cases of its test function (a parametrized test) and the
     * other tests of its file get `rerunTimeoutMs` at most for the rest of the run.
     */
    testTimeoutMs: z.number().int().nonnegative().default(60_000),
    /**
     * The least limit a test gets in a re-run of selected tests (flaky triage, a fix's
     * validation), in ms. Such a re-run gives each test 5x its measured duration, at least
     * this, at most `testTimeoutMs`, so a fix that makes a test hang costs seconds, not minutes. A
     * test that ran past its limit before and was never measured gets this limit in a re-run.
     * It is also the limit, for the rest of a run, of the other cases of a test function and the
     * other tests of a file once one of them reached its limit (a declared `@pytest.mark.timeout`
     * stays as declared): a file whose cases all hang costs one whole limit and then this per
     * case. At `testTimeoutMs` or above, every test keeps the whole limit.
     */
    rerunTimeoutMs: z.number().int().positive().default(10_000),
  })
  .strict();

export type PytestOptions = z.input<typeof PytestOptionsSchema>;
export type ResolvedPytestOptions = z.output<typeof PytestOptionsSchema>;
