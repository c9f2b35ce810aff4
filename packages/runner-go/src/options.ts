import { z } from '@suture/core';

export const GoOptionsSchema = z
  .object({
    /** The go command; default `go` from PATH. */
    go: z.string().min(1).default('go'),
    /** Package patterns to test, relative to the project root. */
    packages: z.array(z.string().min(1)).default(['./...']),
    /**
     * Extra `go test` flags placed before the packages, e.g. ["-race", "-tags=integration"]. suture
     * adds `-json`, `-count=1` (a cached result is not a run) and `-run`/`-skip` for selections.
     */
    args: z.array(z.string()).default([]),
    /** Environment variables set for `go test` on top of suture's own environment, e.g. `{ "CGO_ENABLED": "0" }`. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Time limit of one test or subtest tree, in ms; 0 turns it off. A test past it is stopped with
     * SIGQUIT, reported as a timeout with the goroutine dump as its evidence, and the package's
     * other tests run on in a new test binary.
     */
    testTimeoutMs: z.number().int().nonnegative().default(60_000),
    /**
     * The least limit a test gets in a re-run of selected tests (flaky triage, a fix's
     * validation), in ms: such a re-run gives each test 5x its measured duration, at least this,
     * at most `testTimeoutMs`.
     */
    rerunTimeoutMs: z.number().int().positive().default(10_000),
    /**
     * Give the runs Go's build cache (`go env GOCACHE`, read outside the sandbox), so a validation
     * in the sandbox reuses the compiled standard library and packages instead of rebuilding them
     * in an empty private cache. Where the sandbox can mount an overlay, the runs see it under a
     * private writable layer (Go must write what it builds: a read-only cache fails a build at
     * random with "read-only file system"), and nothing they write reaches the user's cache; test
     * results are never taken from it (`-count=1`).
     */
    shareBuildCache: z.boolean().default(true),
  })
  .strict();

export type GoOptions = z.input<typeof GoOptionsSchema>;
export type ResolvedGoOptions = z.output<typeof GoOptionsSchema>;
