import { z } from '@suture/core';

export const ChecksOptionsSchema = z
  .object({
    /** The shell each check runs in; `sh` from PATH by default. */
    shell: z.string().min(1).default('sh'),
    /** Folder of the `*.checks` files, relative to the project root. */
    dir: z.string().min(1).default('checks'),
    /** Extra environment for the checks. */
    env: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export type ChecksOptions = z.input<typeof ChecksOptionsSchema>;
export type ResolvedChecksOptions = z.output<typeof ChecksOptionsSchema>;
