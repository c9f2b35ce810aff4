import { z } from 'zod';
import { FailureKindSchema } from './failure.js';

/**
 * The agent-facing contract of the propose-only heal (`suture heal`, the MCP tool `suture_heal`,
 * the OpenAI function `suture_heal`). Field names are snake_case: they are read by models and by
 * agents in any language. The heal never writes the caller's files; `suture_apply` does, later.
 */

/** A session id: what `suture_heal` answered, or a new one the caller picks. */
export const SessionIdSchema = z
  .string()
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/,
    'a session id is 1-64 letters, digits, "_" or "-": the session_id of an earlier answer',
  );

export const HealStrategySchema = z
  .enum(['ladder', 'each-fixer'])
  .describe(
    'ladder: one gate, the fixers asked in order until one heals (default). each-fixer: one gate per fixer, every passing patch a candidate',
  );
export type HealStrategy = z.infer<typeof HealStrategySchema>;

export const HealInputSchema = z
  .object({
    change_description: z
      .string()
      .trim()
      .min(1, 'change_description is empty: say in a sentence what you changed and why')
      .max(4000)
      .describe(
        'What the caller just changed and why; the fixer reads it next to the failure (e.g. "renamed total() to subtotal() in cart.py")',
      ),
    session_id: SessionIdSchema.optional().describe(
      'The session_id of an earlier answer, to continue with its attempt history; omit to start a session',
    ),
    allowed_paths: z
      .array(z.string().min(1))
      .max(100)
      .optional()
      .describe(
        'Globs relative to the repository root a patch may touch (e.g. "src/**"); narrows the configured heal.allowedPaths',
      ),
    projects: z
      .array(z.string().min(1))
      .optional()
      .describe('Project names from suture.config.json to gate (default: all)'),
    tests: z
      .array(z.string().min(1))
      .optional()
      .describe(
        "Test ids as the runner names them (a pytest node id, a CTest name, a Jest id) to run instead of the whole suite; with one project only (take them from suture_run's failures)",
      ),
    max_attempts: z.number().int().min(1).max(20).optional().describe('Attempts per failure group'),
    fixers: z
      .array(z.string().min(1))
      .optional()
      .describe('Fixers from the configured ladder to use, by alias or package name (e.g. "hints")'),
    strategy: HealStrategySchema.optional(),
  })
  .strict();
export type HealInput = z.infer<typeof HealInputSchema>;
export type HealInputRaw = z.input<typeof HealInputSchema>;

const LocationSchema = z.object({
  file: z.string(),
  line: z.number().int().optional(),
  symbol: z.string().optional(),
});

/** One file of a failure's ranked scope, with why it is there. */
export const ScopeFileSchema = z.object({
  file: z.string().describe('Repository-relative path'),
  role: z.string(),
  symbols: z.array(z.string()),
  score: z.number().optional(),
  reasons: z.array(z.string()),
});

/** One root cause the analysis found. */
export const AnalysisFailureSchema = z.object({
  id: z.string(),
  project: z.string(),
  kind: FailureKindSchema,
  title: z.string(),
  tests: z.array(z.string()),
  location: LocationSchema.optional(),
  fingerprint: z.string(),
  repairable: z.boolean(),
  /** What became of it: healed, exhausted, unfixable, product-bug, flaky, ... (heal only). */
  outcome: z.string().optional(),
  reason: z.string().optional(),
  /** The ranked edit scope, best first (heal only). */
  scope: z.array(ScopeFileSchema).optional(),
});
export type AnalysisFailure = z.infer<typeof AnalysisFailureSchema>;

export const HealPhaseSchema = z.object({
  name: z.enum(['analyse', 'plan', 'patch', 'verify']),
  status: z.enum(['done', 'skipped', 'failed']),
  duration_ms: z.number().nonnegative().optional(),
  summary: z.string(),
});
export type HealPhase = z.infer<typeof HealPhaseSchema>;

export const PatchValidationSchema = z.object({
  /** Every selected test ran and passed with this patch applied. */
  passed: z.boolean(),
  tests_run: z.array(z.string()),
  still_failing: z.array(z.object({ id: z.string(), message: z.string().optional() })),
  command: z.string().optional(),
});

export const PatchUsageSchema = z.object({
  calls: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  model: z.string().optional(),
});
export type PatchUsage = z.infer<typeof PatchUsageSchema>;

export const HealPatchSchema = z.object({
  /** What `suture_apply` takes, with the session id. */
  id: z.string(),
  /** 1 is the best: passing first, then the fewest failing tests. */
  rank: z.number().int().positive(),
  diff: z.string().describe('Unified diff, repository-relative paths, accepted by `git apply`'),
  files: z.array(z.string()),
  fixer: z.string(),
  rationale: z.string(),
  expectation_changed: z
    .boolean()
    .describe('The patch changes an expected value in a test: a reviewer should look'),
  /** The failures (analysis ids) it was made for. */
  failures: z.array(z.string()),
  validation: PatchValidationSchema,
  usage: PatchUsageSchema,
});
export type HealPatch = z.infer<typeof HealPatchSchema>;

export const HealTotalsSchema = z.object({
  tests: z.number().int().nonnegative(),
  failing_before: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  attempts: z.number().int().nonnegative(),
  patches: z.number().int().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  cost_usd: z.number().nonnegative(),
  duration_ms: z.number().nonnegative(),
});

export const HealAnswerSchema = z.object({
  session_id: z.string(),
  /** The call's number in its session, from 1. */
  call: z.number().int().positive(),
  status: z
    .enum(['fixed', 'candidates', 'unfixable'])
    .describe(
      'fixed: one validated patch (none when nothing failed); candidates: several to choose from, or the closest when none passes; unfixable: no patch, see reason and analysis',
    ),
  analysis: z.object({
    failures: z.array(AnalysisFailureSchema),
    projects: z.array(z.object({ name: z.string(), status: z.string(), error: z.string().optional() })),
  }),
  phases: z.array(HealPhaseSchema),
  patches: z.array(HealPatchSchema),
  reason: z.string().optional(),
  totals: HealTotalsSchema,
  /** What the caller can do next, in a sentence. */
  next: z.string(),
});
export type HealAnswer = z.infer<typeof HealAnswerSchema>;
