import { z } from '@suture/core';

export const CargoOptionsSchema = z
  .object({
    /** The cargo command (default `cargo` on PATH, which rustup's proxy resolves). */
    cargo: z.string().min(1).default('cargo'),
    /**
     * cargo arguments, as typed after `cargo test` and before `--`: `["--workspace"]`,
     * `["--features", "serde"]`, `["-p", "core"]`.
     */
    args: z.array(z.string()).default([]),
    /** libtest arguments, as typed after `--`: `["--include-ignored"]`. */
    testArgs: z.array(z.string()).default([]),
    /** Extra environment variables for cargo and the tests. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * The build folder. `auto`: cargo's own (`target/`, or what `CARGO_TARGET_DIR` and
     * `.cargo/config.toml` say) when it lies inside the project, so suture shares the warm build
     * with your own `cargo test`; else `target-suture` in the project (a workspace member whose
     * `target/` is at the workspace root, outside the project). A path is read from the project root.
     */
    targetDir: z.string().min(1).default('auto'),
    /**
     * Time limit of one test in ms: a test binary that reports no result for this long is stopped,
     * the test it was running is reported as a `timeout` (libtest names it past 60 s; else a
     * one-thread re-run of the binary's unreported tests names it) and the others still run.
     */
    testTimeoutMs: z.number().int().positive().default(60_000),
  })
  .strict();

export type CargoOptions = z.input<typeof CargoOptionsSchema>;
export type ResolvedCargoOptions = z.output<typeof CargoOptionsSchema>;
