import { z } from 'zod';
import { FailureSchema, ScopeSchema } from './failure.js';

/**
 * One edit. `search`/`replace` replaces exactly one occurrence of `search` (it must occur once);
 * `content` replaces the whole file (or creates it, if the scope allows new files).
 */
export const EditSchema = z.union([
  z
    .object({
      file: z.string().min(1),
      search: z.string().min(1),
      replace: z.string(),
    })
    .strict(),
  z
    .object({
      file: z.string().min(1),
      content: z.string(),
    })
    .strict(),
]);
export type Edit = z.infer<typeof EditSchema>;

/**
 * What answers replayed from a cassette had cost when they were recorded. The replay spent none
 * of it: a replayed answer counts 0 calls, 0 tokens and $0 in a usage's own figures (and so
 * against the budget), and this says that the answer came from the cassette and what it took.
 */
export const ReplayedUsageSchema = z.object({
  /** Answers taken from the cassette. */
  answers: z.number().int().positive(),
  calls: z.number().int().nonnegative().default(0),
  inputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative().default(0),
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  costUsd: z.number().nonnegative().default(0),
});
export type ReplayedUsage = z.infer<typeof ReplayedUsageSchema>;

export const UsageSchema = z.object({
  model: z.string().optional(),
  inputTokens: z.number().int().nonnegative().default(0),
  outputTokens: z.number().int().nonnegative().default(0),
  cacheReadTokens: z.number().int().nonnegative().default(0),
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  costUsd: z.number().nonnegative().default(0),
  /** Number of LLM calls made for this proposal (0 for deterministic fixers). */
  calls: z.number().int().nonnegative().default(0),
  durationMs: z.number().nonnegative().optional(),
  /** Set when answers came from a cassette: what they had cost when recorded (not counted above). */
  replayed: ReplayedUsageSchema.optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

export const BugReportSchema = z.object({
  summary: z.string().min(1),
  expected: z.string(),
  actual: z.string(),
  evidence: z.string(),
  /** Where the defect is believed to be. */
  file: z.string().optional(),
  symbol: z.string().optional(),
});
export type BugReport = z.infer<typeof BugReportSchema>;

export const FixProposalSchema = z.discriminatedUnion('verdict', [
  z.object({
    verdict: z.literal('edits'),
    edits: z.array(EditSchema).min(1),
    rationale: z.string(),
    usage: UsageSchema.optional(),
  }),
  z.object({
    verdict: z.literal('product-bug'),
    bug: BugReportSchema,
    rationale: z.string().default(''),
    usage: UsageSchema.optional(),
  }),
  z.object({
    verdict: z.literal('unfixable'),
    diagnosis: z.string(),
    usage: UsageSchema.optional(),
  }),
]);
export type FixProposal = z.infer<typeof FixProposalSchema>;
export type FixProposalInput = z.input<typeof FixProposalSchema>;

/**
 * Which side of a failing test a fixer may edit.
 * - source: only code under test (tests are the spec).
 * - tests: only test files.
 * - both: either.
 */
export const EditableSchema = z.enum(['source', 'tests', 'both']);
export type Editable = z.infer<typeof EditableSchema>;

export const EditPolicySchema = z.object({
  editable: EditableSchema,
  allowedPaths: z.array(z.string()),
  deniedPaths: z.array(z.string()),
  allowTestWeakening: z.boolean(),
  allowNewFiles: z.boolean(),
  maxFilesPerAttempt: z.number().int().positive(),
});
export type EditPolicy = z.infer<typeof EditPolicySchema>;

export const SourceSliceSchema = z.object({
  file: z.string(),
  /** 1-based inclusive line range of `text` in the file. */
  startLine: z.number().int().positive(),
  endLine: z.number().int().positive(),
  text: z.string(),
  /** Why this slice was included (the scope entry's reasons). */
  reason: z.string(),
  /** Lines of the slice the failing test went through when it failed (its location, its trace's frames). */
  marked: z.array(z.number().int().positive()).optional(),
});
export type SourceSlice = z.infer<typeof SourceSliceSchema>;

/** A ranked function or file of the scope whose source the budget left out (wholly or in part), and why. */
export const OmittedSourceSchema = z.object({
  file: z.string(),
  symbol: z.string().optional(),
  startLine: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
  reason: z.string(),
});
export type OmittedSource = z.infer<typeof OmittedSourceSchema>;

/** What an earlier attempt on the same failure did and what happened. */
export const AttemptSummarySchema = z.object({
  attempt: z.number().int().positive(),
  fixer: z.string(),
  verdict: z.string(),
  rationale: z.string().optional(),
  diff: z.string().optional(),
  /** Why it did not heal: refusal reason, or the new errors the re-run produced. */
  outcome: z.string(),
});
export type AttemptSummary = z.infer<typeof AttemptSummarySchema>;

export const FixRequestSchema = z.object({
  project: z.object({ name: z.string(), root: z.string(), language: z.string().optional() }),
  failure: FailureSchema,
  scope: ScopeSchema,
  /** Source of the scope, bounded by `tokenBudget` (about 4 characters a token). */
  sources: z.array(SourceSliceSchema),
  /** Ranked code of the scope the source budget left out, best first: a fixer may read it. */
  omitted: z.array(OmittedSourceSchema).optional(),
  history: z.array(AttemptSummarySchema),
  policy: EditPolicySchema,
  attempt: z.number().int().positive(),
  maxAttempts: z.number().int().positive(),
  tokenBudget: z.number().int().positive(),
  /**
   * The user's own description of the change that made the tests fail, when one was given (an
   * agent's suture_heal `change_description`): the intent a fix should keep. The prompt shows it.
   */
  changeDescription: z.string().optional(),
});
export type FixRequest = z.infer<typeof FixRequestSchema>;
