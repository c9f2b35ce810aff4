import { z } from 'zod';

/** A machine-applicable edit suggested by a toolchain (GCC/Clang `fix-it:`, TypeScript code fixes, computed hints). */
export const FixItSchema = z.object({
  /** Path relative to the project root (POSIX separators). */
  file: z.string(),
  /** 1-based start line and column. */
  line: z.number().int().positive(),
  column: z.number().int().positive(),
  /** 1-based end line and column; the end column is exclusive. An insertion has end equal to start. */
  endLine: z.number().int().positive(),
  endColumn: z.number().int().positive(),
  replacement: z.string(),
  /** What the toolchain said about this fix, e.g. "did you mean 'counter'?" */
  description: z.string().optional(),
});
export type FixIt = z.infer<typeof FixItSchema>;

export const SeveritySchema = z.enum(['error', 'warning', 'note']);
export type Severity = z.infer<typeof SeveritySchema>;

/** A build, collection or configuration problem that is not a single test's result. */
export const DiagnosticSchema = z.object({
  /** Where it came from: 'gcc', 'clang', 'cmake', 'ld', 'pytest-collection', 'jest-suite', ... */
  source: z.string(),
  severity: SeveritySchema,
  message: z.string(),
  /** Path relative to the project root when inside it, else as reported. */
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  column: z.number().int().positive().optional(),
  /** A code the toolchain attaches (TS2304, a gcc -W flag, an exception type). */
  code: z.string().optional(),
  /** The symbol the diagnostic is about, when known (an undefined reference, a missing name). */
  symbol: z.string().optional(),
  notes: z
    .array(
      z.object({
        message: z.string(),
        file: z.string().optional(),
        line: z.number().int().positive().optional(),
        column: z.number().int().positive().optional(),
      }),
    )
    .default([]),
  fixIts: z.array(FixItSchema).default([]),
  /** Test ids this diagnostic prevents from running, when known. */
  tests: z.array(z.string()).default([]),
  /** Raw text of the diagnostic (bounded). */
  raw: z.string().optional(),
});
export type Diagnostic = z.infer<typeof DiagnosticSchema>;

export const TestStatusSchema = z.enum(['passed', 'failed', 'error', 'skipped', 'timeout', 'crashed']);
export type TestStatus = z.infer<typeof TestStatusSchema>;

export const TestResultSchema = z.object({
  /** Runner-native id: a pytest nodeid, a ctest name, a Jest "file › full name" id. Stable across runs. */
  id: z.string().min(1),
  /** Human name (defaults to id). */
  name: z.string().optional(),
  file: z.string().optional(),
  /** 1-based line of the test definition. */
  line: z.number().int().positive().optional(),
  status: TestStatusSchema,
  durationMs: z.number().nonnegative().optional(),
  /** Short failure message (first lines of the assertion or exception). */
  message: z.string().optional(),
  /** Full failure text: traceback, stack, captured output (bounded by the runner). */
  trace: z.string().optional(),
  /** Runner-specific details that analyzers may use (exception type, signal, expected/received). */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type TestResult = z.infer<typeof TestResultSchema>;

/**
 * passed: every selected test passed. failed: tests failed or diagnostics stop tests.
 * error: the runner could not produce results (toolchain missing, config error, crash before reporting).
 * timeout: the wall-clock limit killed the run (results gathered so far are kept).
 */
export const RunStatusSchema = z.enum(['passed', 'failed', 'error', 'timeout']);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunResultSchema = z.object({
  status: RunStatusSchema,
  tests: z.array(TestResultSchema),
  diagnostics: z.array(DiagnosticSchema).default([]),
  exitCode: z.number().int().nullable(),
  /** The command line that ran, for the report (argv joined for display). */
  command: z.string(),
  durationMs: z.number().nonnegative(),
  /** Bounded tail of combined stdout/stderr. */
  outputTail: z.string().default(''),
  /** When status is 'error': what went wrong and what to do. */
  error: z.string().optional(),
  /** True when `ctx.selection` was honoured (only those tests ran). */
  selected: z.boolean().default(false),
  /**
   * How many tests the runner collected for this run (the tests it was to report), when it knows.
   * A run that reports fewer results than this did not complete, whatever its exit code: the
   * engine then fails a `passed` run and notes why.
   */
  collected: z.number().int().nonnegative().optional(),
});
export type RunResult = z.infer<typeof RunResultSchema>;
export type RunResultInput = z.input<typeof RunResultSchema>;
