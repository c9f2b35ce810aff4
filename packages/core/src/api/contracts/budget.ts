import { z } from 'zod';

/**
 * What one run may spend on fixers, across every fixer and project. When a limit is reached no
 * further LLM call is made (a call in progress is stopped when the time runs out); deterministic
 * fixers and test runs go on.
 */
export const BudgetConfigSchema = z
  .object({
    maxCostUsd: z
      .number()
      .positive()
      .optional()
      .describe('US dollars the run may spend on LLM calls (priced from each fixer\'s "prices")'),
    maxCalls: z.number().int().positive().optional().describe('LLM calls the run may make'),
    maxWallMs: z
      .number()
      .int()
      .positive()
      .optional()
      .describe('Milliseconds from the start of the run after which no LLM call is made or kept waiting'),
  })
  .strict();
export type BudgetConfig = z.infer<typeof BudgetConfigSchema>;
