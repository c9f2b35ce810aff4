import { z } from '@suture/core';

export const JestOptionsSchema = z
  .object({
    /** Path to Jest's CLI script (default: jest/bin/jest.js resolved from the project). */
    jestBin: z.string().min(1).optional(),
    /** Jest config file, passed as --config. */
    config: z.string().min(1).optional(),
    /** Extra Jest arguments. */
    args: z.array(z.string()).default([]),
    /** Extra environment variables (NODE_OPTIONS=--experimental-vm-modules for native ESM projects). */
    env: z.record(z.string(), z.string()).default({}),
  })
  .strict();

export type JestOptions = z.input<typeof JestOptionsSchema>;
export type ResolvedJestOptions = z.output<typeof JestOptionsSchema>;
