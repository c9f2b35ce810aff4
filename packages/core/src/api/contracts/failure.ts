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
});
export type ScopeEntry = z.infer<typeof ScopeEntrySchema>;

/** The files an attempt may edit, each with its justification. */
export const ScopeSchema = z.object({
  entries: z.array(ScopeEntrySchema),
  /** Files the walk reached but policy removed, with the rule that removed them. */
  excluded: z.array(z.object({ file: z.string(), reason: z.string() })).default([]),
});
export type Scope = z.infer<typeof ScopeSchema>;
export type ScopeInput = z.input<typeof ScopeSchema>;
