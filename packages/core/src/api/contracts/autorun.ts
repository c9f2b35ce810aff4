import { z } from 'zod';
import { UsageSchema } from './fix.js';

/**
 * Why a generated test file was kept or removed. The filter asks in this order: does it compile
 * (after at most `maxFixAttempts` heals), does it pass `flakeRuns` runs in a row, does it cover a
 * line or branch of the target that the existing tests and the files kept before it do not.
 */
export const AutoRunVerdictSchema = z.enum([
  'kept',
  'does-not-compile',
  'fails',
  'flaky',
  'no-coverage',
  'rolled-back',
]);
export type AutoRunVerdict = z.infer<typeof AutoRunVerdictSchema>;

export const RollbackStrategySchema = z.enum(['restoreSnapshot', 'gitCheckout', 'manual']);
export type RollbackStrategy = z.infer<typeof RollbackStrategySchema>;

/** Line and branch counts of the target files. */
export const CoverageCountsSchema = z.object({
  lines: z.object({ covered: z.number().int().nonnegative(), total: z.number().int().nonnegative() }),
  branches: z.object({
    covered: z.number().int().nonnegative(),
    total: z.number().int().nonnegative(),
  }),
});
export type CoverageCounts = z.infer<typeof CoverageCountsSchema>;

/** Lines of a target file, 1-based, sorted. */
export const FileLinesSchema = z.object({ file: z.string(), lines: z.array(z.number().int().positive()) });
export type FileLines = z.infer<typeof FileLinesSchema>;

/** One heal of a generated file by the fixer ladder, as the gate reported it. */
export const AutoRunAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  fixer: z.string(),
  verdict: z.string(),
  reason: z.string().optional(),
  diff: z.string().optional(),
  /** Did the healed file pass the gate's validation run. */
  validated: z.boolean(),
});
export type AutoRunAttempt = z.infer<typeof AutoRunAttemptSchema>;

export const AutoRunTestSchema = z.object({
  /** Project-relative generated file: the unit the filter keeps or removes. */
  file: z.string(),
  /** The tests the runner reported for the file (or the generator's plan when none ran). */
  tests: z.array(z.string()),
  /** What the generator said the file exercises. */
  covers: z.string().optional(),
  /** 1-based generation attempt that wrote it. */
  generation: z.number().int().positive(),
  verdict: AutoRunVerdictSchema,
  /** One sentence: the compiler's first error, the failing test's message, the flaky runs. */
  reason: z.string(),
  attempts: z.array(AutoRunAttemptSchema).default([]),
  /** Status of its tests in each flake-filter run, in order ('passed', 'failed', ...). */
  runs: z.array(z.string()).default([]),
  /** Target lines and branches it covers that nothing before it covered. */
  gain: z.object({ lines: z.array(FileLinesSchema), branches: z.number().int().nonnegative() }).optional(),
  durationMs: z.number().nonnegative(),
});
export type AutoRunTest = z.infer<typeof AutoRunTestSchema>;

export const AutoRunGenerationSchema = z.object({
  attempt: z.number().int().positive(),
  /** The generator plugin's name, or the command that generated the files. */
  source: z.string(),
  summary: z.string(),
  files: z.array(z.string()),
  /** Uncovered target lines given to the generator for this attempt. */
  uncoveredGiven: z.array(FileLinesSchema).default([]),
  usage: UsageSchema.optional(),
  durationMs: z.number().nonnegative(),
});
export type AutoRunGeneration = z.infer<typeof AutoRunGenerationSchema>;

export const AuditEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('command'),
    at: z.string(),
    command: z.string(),
    cwd: z.string(),
    exitCode: z.number().int().nullable(),
    durationMs: z.number().nonnegative(),
    purpose: z.string(),
  }),
  z.object({
    kind: z.enum(['write', 'delete', 'restore']),
    at: z.string(),
    file: z.string(),
    sha256: z.string().optional(),
    purpose: z.string(),
  }),
]);
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

export const AutoRunRollbackSchema = z.object({
  strategy: RollbackStrategySchema,
  /** Files brought back to their bytes before the run (or removed when they did not exist). */
  restored: z.array(z.string()),
  /** `manual`: files left in place, and what to do about them. */
  left: z.array(z.string()).default([]),
  instructions: z.array(z.string()).default([]),
  /** Files the user changed during the run: their version is kept. */
  conflicts: z.array(z.object({ file: z.string(), reason: z.string() })).default([]),
});
export type AutoRunRollback = z.infer<typeof AutoRunRollbackSchema>;

/** What `suture generate tests` and `suture autorun` report: report.json in the run folder. */
export const AutoRunReportSchema = z.object({
  schemaVersion: z.literal(1),
  runId: z.string(),
  project: z.string(),
  language: z.string(),
  /** Project-relative files whose coverage decides. */
  target: z.array(z.string()),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().nonnegative(),
  settings: z.object({
    maxFixAttempts: z.number().int().nonnegative(),
    flakeRuns: z.number().int().positive(),
    generations: z.number().int().positive(),
    rollback: RollbackStrategySchema,
    coverageTool: z.string(),
  }),
  coverage: z.object({
    before: CoverageCountsSchema,
    after: CoverageCountsSchema,
    uncoveredAfter: z.array(FileLinesSchema),
  }),
  generations: z.array(AutoRunGenerationSchema),
  tests: z.array(AutoRunTestSchema),
  rollback: AutoRunRollbackSchema,
  totals: z.object({
    generated: z.number().int().nonnegative(),
    kept: z.number().int().nonnegative(),
    healed: z.number().int().nonnegative(),
    llmCalls: z.number().int().nonnegative(),
    costUsd: z.number().nonnegative(),
    /** Answers replayed from a cassette: no call was made for them, so they are not in llmCalls or costUsd. */
    replayedAnswers: z.number().int().nonnegative().default(0),
  }),
  audit: z.array(AuditEntrySchema),
  /** 0 a test was kept, 1 none was, 3 the run failed (then everything was rolled back). */
  exitCode: z.number().int(),
  error: z.string().optional(),
  runDir: z.string().optional(),
});
export type AutoRunReport = z.infer<typeof AutoRunReportSchema>;
