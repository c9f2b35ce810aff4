import { z } from 'zod';
import { AnalysisFailureSchema, HealAnswerSchema, SessionIdSchema } from './heal.js';

/**
 * The other agent-facing tools next to the heal: `suture_run` (the gate, nothing written),
 * `suture_apply` (a returned patch, through the journal) and `suture_report` (an earlier run or
 * session). snake_case like the heal.
 */

export const RunInputSchema = z
  .object({
    projects: z.array(z.string().min(1)).optional().describe('Project names to gate (default: all)'),
    tests: z
      .array(z.string().min(1))
      .optional()
      .describe('Test ids to run instead of the whole suite; with one project only'),
  })
  .strict();
export type RunInput = z.infer<typeof RunInputSchema>;

const RunTotalsSchema = z.object({
  tests: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
});

export const RunAnswerSchema = z.object({
  run_id: z.string(),
  status: z.enum(['green', 'failing', 'error']),
  exit_code: z.number().int(),
  duration_ms: z.number().nonnegative(),
  totals: RunTotalsSchema,
  projects: z.array(z.object({ name: z.string(), status: z.string(), error: z.string().optional() })),
  failures: z.array(AnalysisFailureSchema),
  run_dir: z.string().optional(),
  error: z.string().optional(),
});
export type RunAnswer = z.infer<typeof RunAnswerSchema>;

export const ApplyInputSchema = z
  .object({
    session_id: SessionIdSchema.describe('The session_id of the heal answer that holds the patch'),
    patch_id: z
      .string()
      .min(1)
      .optional()
      .describe('The id of the patch to apply (default: the best-ranked patch of the latest answer)'),
  })
  .strict();
export type ApplyInput = z.infer<typeof ApplyInputSchema>;

export const ApplyAnswerSchema = z.object({
  applied: z.boolean(),
  session_id: z.string(),
  patch_id: z.string(),
  files: z.array(z.string()),
  /** Why nothing was written (files changed since the heal saw them, an unknown patch). */
  reason: z.string().optional(),
  /** The files whose content is no longer what the heal saw. */
  changed: z.array(z.string()).optional(),
});
export type ApplyAnswer = z.infer<typeof ApplyAnswerSchema>;

export const ReportInputSchema = z
  .object({
    run_id: z
      .string()
      .min(1)
      .optional()
      .describe('A run folder name under .suture/runs (default: the latest)'),
    session_id: SessionIdSchema.optional().describe('A heal session: its latest answer instead of a run'),
  })
  .strict();
export type ReportInput = z.infer<typeof ReportInputSchema>;

export const ReportAnswerSchema = z.object({
  run: RunAnswerSchema.optional(),
  session: z
    .object({
      session_id: z.string(),
      calls: z.number().int().nonnegative(),
      latest: HealAnswerSchema.optional(),
      applied: z.array(z.string()),
    })
    .optional(),
});
export type ReportAnswer = z.infer<typeof ReportAnswerSchema>;
