import { z } from '@suture/core';

export const JestOptionsSchema = z
  .object({
    /** Path to Jest's CLI script (default: jest/bin/jest.js resolved from the project). */
    jestBin: z.string().min(1).optional(),
    /** Jest config file, passed as --config. */
    config: z.string().min(1).optional(),
    /** Extra Jest arguments. */
    args: z.array(z.string()).default([]),
    /** Extra environment variables for Jest. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * Run Node with --experimental-vm-modules, which Jest needs for native ES modules. `auto`:
     * when package.json has "type": "module" or the Jest config lists extensionsToTreatAsEsm.
     */
    esm: z.union([z.literal('auto'), z.boolean()]).default('auto'),
  })
  .strict();

export type JestOptions = z.input<typeof JestOptionsSchema>;
export type ResolvedJestOptions = z.output<typeof JestOptionsSchema>;
