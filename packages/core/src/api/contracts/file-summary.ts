import { z } from 'zod';
import { FailureKindSchema } from './failure.js';

/**
 * How a test file ended. passed: nothing failed. healed: every failure of the file was healed
 * (a validated patch, kept in `--fix` mode) or was flaky, at least one healed. flaky: its only
 * failures were flaky. failing: something still fails. skipped: every test was skipped.
 */
export const FileStateSchema = z.enum(['passed', 'healed', 'flaky', 'failing', 'skipped']);
export type FileState = z.infer<typeof FileStateSchema>;

/** One test file of one project, summed up over the whole gate: what ran, what failed, what was done. */
export const FileSummarySchema = z.object({
  project: z.string(),
  /** Project-relative test file; `(no file)` gathers the tests the runner gave no file. */
  file: z.string(),
  /** Tests of the file in the first full run. */
  tests: z.number().int().nonnegative(),
  /** Those that did not pass (failed, error, timeout, crashed). */
  failed: z.number().int().nonnegative(),
  /** Failure groups that explain tests of the file (or, with no test, are located in it). */
  errors: z.array(
    z.object({
      kind: FailureKindSchema,
      message: z.string(),
      /** The group's outcome: healed, product-bug, flaky, unfixable, exhausted, ... */
      outcome: z.string(),
    }),
  ),
  /** Runs of the project (initial, retries, regression) that ran tests of the file. */
  rounds: z.number().int().nonnegative(),
  /** Fixer attempts made on those failure groups. */
  attempts: z.number().int().nonnegative(),
  state: FileStateSchema,
});
export type FileSummary = z.infer<typeof FileSummarySchema>;
