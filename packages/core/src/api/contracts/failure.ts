import { z } from 'zod';
import { DiagnosticSchema } from './run-result.js';

export const FailureKindSchema = z.enum([
  'build',
  'collection',
  'syntax',
  'import',
  'assertion',
  'exception',
  'timeout',
  'crash',
  'infra',
  'flaky',
]);
export type FailureKind = z.infer<typeof FailureKindSchema>;

/** Kinds a fixer is never asked about: the cause is outside the code. */
export const UNREPAIRABLE_KINDS: readonly FailureKind[] = ['infra', 'flaky'];

export const LocationSchema = z.object({
  /** Project-relative POSIX path. */
  file: z.string(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  /** Enclosing function or method, e.g. `Cart.total` or `add`. */
  symbol: z.string().optional(),
});
export type Location = z.infer<typeof LocationSchema>;

/** One root cause. A broken import that fails 30 tests is one Failure with 30 test ids. */
export const FailureSchema = z.object({
  /** Stable id for this failure within a run: `<project>:<fingerprint>`. */
  id: z.string(),
  kind: FailureKindSchema,
  /** One-line summary for reports. */
  title: z.string(),
  /** Test ids this failure explains (empty for a build failure that stops everything: see `blocksAll`). */
  tests: z.array(z.string()),
  /** True when the failure stops the whole suite (a build error, a conftest import error). */
  blocksAll: z.boolean().default(false),
  location: LocationSchema.optional(),
  /** Other frames of the trace inside the project, innermost first. */
  frames: z.array(LocationSchema).default([]),
  /** Trimmed evidence: the message and the relevant part of the trace/output. */
  evidence: z.string(),
  /**
   * Same root cause => same fingerprint across attempts and runs. Built from the kind, the
   * normalized message (no addresses, no line numbers) and the symbol.
   */
  fingerprint: z.string(),
  repairable: z.boolean(),
  /** Why it is not repairable, when it is not. */
  reason: z.string().optional(),
  diagnostics: z.array(DiagnosticSchema).default([]),
  /** Analyzer-specific facts a fixer may use (exception type, missing name, expected/actual). */
  details: z.record(z.string(), z.unknown()).default({}),
});
export type Failure = z.infer<typeof FailureSchema>;
export type FailureInput = z.input<typeof FailureSchema>;

export const ScopeRoleSchema = z.enum(['test', 'source', 'fixture', 'header', 'config']);
export type ScopeRole = z.infer<typeof ScopeRoleSchema>;

/** One function of a scope entry, with how likely it holds the cause. */
export const RankedSymbolSchema = z.object({
  symbol: z.string(),
  /** 0..1: 1 is the failure's own frame in the code under test. */
  score: z.number().min(0).max(1),
  /** The strongest evidence for it, e.g. "frame 1 of the traceback", "called on the failing line". */
  reason: z.string(),
  /** 1-based first and last line of its definition when the analyzer read them. */
  line: z.number().int().positive().optional(),
  endLine: z.number().int().positive().optional(),
});
export type RankedSymbol = z.infer<typeof RankedSymbolSchema>;

export const ScopeEntrySchema = z.object({
  /** Project-relative POSIX path. */
  file: z.string(),
  /** Symbols in that file that matter (functions, classes, methods); empty = whole file. */
  symbols: z.array(z.string()).default([]),
  role: ScopeRoleSchema,
  /** Why this file is in scope, e.g. "called by test_total (depth 1)", "frame 2 of the traceback". */
  reasons: z.array(z.string()).min(1),
  /** Walk depth at which it was reached (0 = the test or the failure location itself). */
  depth: z.number().int().nonnegative().default(0),
  /**
   * How likely this file holds the cause, 0..1: the score of its best symbol. An analyzer that
   * ranks lists its entries best first; entries without a score come after the ranked ones.
   */
  score: z.number().min(0).max(1).optional(),
  /**
   * The entry's functions, best first. Source slices for a fixer are spent in score order across
   * all entries, function by function, so the likeliest code is sent first whatever its file.
   */
  ranking: z.array(RankedSymbolSchema).optional(),
});
export type ScopeEntry = z.infer<typeof ScopeEntrySchema>;

/** The files an attempt may edit, each with its justification. */
export const ScopeSchema = z.object({
  entries: z.array(ScopeEntrySchema),
  /** Files the walk reached but policy removed, with the rule that removed them. */
  excluded: z.array(z.object({ file: z.string(), reason: z.string() })).default([]),
  /** Why the scope may miss a file: the analysis stopped at a limit (its time, a file's size) first. */
  incomplete: z.string().optional(),
});
export type Scope = z.infer<typeof ScopeSchema>;
export type ScopeInput = z.input<typeof ScopeSchema>;
