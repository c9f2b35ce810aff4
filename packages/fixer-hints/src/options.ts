import { z } from '@suture/core';

export const HintsOptionsSchema = z
  .object({
    /** Interpreter asked for builtins, stdlib names and dir() of modules (default: the project's). */
    python: z.string().min(1).optional(),
  })
  .strict();

export type HintsOptions = z.input<typeof HintsOptionsSchema>;
