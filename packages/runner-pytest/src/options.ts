import { z } from '@suture/core';

export const PytestOptionsSchema = z
  .object({
    /** Python interpreter; default: the project's .venv/venv interpreter when present, else `python3`. */
    python: z.string().min(1).optional(),
    /** Extra pytest arguments, e.g. ["-x", "-m", "not slow"]. */
    args: z.array(z.string()).default([]),
    /** Extra environment variables for the test process. */
    env: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export type PytestOptions = z.input<typeof PytestOptionsSchema>;
export type ResolvedPytestOptions = z.output<typeof PytestOptionsSchema>;
