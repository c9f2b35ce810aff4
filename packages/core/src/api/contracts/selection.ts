import { z } from 'zod';

/** Line numbers (1-based) as sorted ranges: `"1-4,7,9-12"`; `""` is none. */
export const LineRangesSchema = z
  .string()
  .regex(/^(\d+(-\d+)?(,\d+(-\d+)?)*)?$/, 'line ranges such as "1-4,7,9-12"');

const Sha256Schema = z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 in hex');

/**
 * What a runner with `supportsRecording` writes to `RunContext.record` after a run: which lines of
 * which files each test ran, and, per file, the content hash of the version that ran and the lines
 * whose code runs for more tests than the ones that ran them. Paths are absolute or
 * project-relative; core keeps the files inside the repository.
 */
export const RecordingSchema = z.object({
  /** Why nothing could be recorded (the coverage tool is missing, another tracer holds the interpreter). */
  unavailable: z.string().optional(),
  tests: z
    .array(
      z.object({
        /** The test's id as the RunResult gives it. */
        id: z.string().min(1),
        /** The test's own file (absolute or project-relative). */
        file: z.string().optional(),
        /** File path -> the lines the test ran there (its setup and teardown included). */
        lines: z.record(z.string(), LineRangesSchema),
        /**
         * The test ran code the recording cannot follow (it started a process): selected by every
         * change.
         */
        opaque: z.boolean().optional(),
      }),
    )
    .default([]),
  files: z
    .record(
      z.string(),
      z.object({
        /** sha256 of the bytes that ran. */
        sha256: Sha256Schema,
        /**
         * Lines whose code runs once for every test that uses the file (module and class bodies,
         * signatures, decorators, imports, code run outside any test): a change there selects every test.
         */
        shared: LineRangesSchema.default(''),
        /** The lines that hold code at all; a change between two of them is judged by its neighbours. */
        code: LineRangesSchema.optional(),
      }),
    )
    .default({}),
});
export type Recording = z.infer<typeof RecordingSchema>;
export type RecordingInput = z.input<typeof RecordingSchema>;

/** What selection by change needs to know of a runner's project, from `Runner.selectionRules`. */
export const SelectionRulesSchema = z.object({
  /**
   * The toolchain the tests run under (interpreter, its version, the installed packages): a record
   * made under another toolchain is not used.
   */
  toolchain: z.string().min(1),
  /**
   * Globs (relative to the project root) of files whose change runs every test: build and
   * dependency files, shared test setup (`pyproject.toml`, `**\/conftest.py`).
   */
  runAll: z.array(z.string()).default([]),
  /** Why the runner cannot record here; a record is then never made, and the fallback says why. */
  unavailable: z.string().optional(),
});
export type SelectionRules = z.infer<typeof SelectionRulesSchema>;
export type SelectionRulesInput = z.input<typeof SelectionRulesSchema>;

/**
 * A selection record as stored under `.suture/selection/<project>/`: the tests of green runs and
 * the lines each ran, keyed by the content hash of every file. Two records merge by union
 * (`mergeSelectionRecords`): a test recorded in both keeps the newer entry.
 */
export const SelectionRecordSchema = z.object({
  version: z.literal(1),
  project: z.string(),
  runner: z.string(),
  toolchain: z.string(),
  /**
   * The commits the recorded runs saw, and the files that differed from them then: each with the
   * sha256 of what it held (`""` for a file that was gone).
   */
  trees: z
    .array(z.object({ commit: z.string(), dirty: z.record(z.string(), z.string()).default({}) }))
    .default([]),
  tests: z.record(
    z.string(),
    z.object({
      recordedAt: z.string(),
      /** The test's own file (repository-relative). */
      file: z.string().optional(),
      opaque: z.boolean().optional(),
      /** Repository-relative file -> the hash of the version it ran and the lines it ran there. */
      ran: z.record(z.string(), z.object({ sha256: Sha256Schema, lines: LineRangesSchema })),
    }),
  ),
  /** Repository-relative file -> sha256 -> what the lines of that version are. */
  files: z.record(
    z.string(),
    z.record(z.string(), z.object({ shared: LineRangesSchema, code: LineRangesSchema.optional() })),
  ),
});
export type SelectionRecord = z.infer<typeof SelectionRecordSchema>;

/**
 * How a project's tests were chosen under `--changed` (or `select: "changed"`): from the record,
 * or the whole suite, and why.
 */
export const ProjectSelectionSchema = z.object({
  /** record: the tests a change can reach, from the selection record; all: the whole suite. */
  basis: z.enum(['record', 'all']),
  /** Tests run in the initial round. */
  selected: z.number().int().nonnegative(),
  /** Tests the project has, as far as the record and the run know. */
  total: z.number().int().nonnegative(),
  /** Why the whole suite ran (basis `all`): no record, a build file changed, ... */
  fallback: z.string().optional(),
  /** Changed files that decided the selection, with what each did (at most a few dozen). */
  reasons: z.array(z.object({ file: z.string(), effect: z.string() })).default([]),
  /** Whether this run added to the record (a green run), or why not. */
  recorded: z.union([z.literal(true), z.string()]).optional(),
});
export type ProjectSelection = z.infer<typeof ProjectSelectionSchema>;

/** The change `--changed` measured against. */
export const ChangeBaseSchema = z.object({
  /** The commit the working tree was compared with. */
  commit: z.string(),
  /** How it was found: "given: HEAD~1", "merge base of HEAD and origin/main". */
  source: z.string(),
  /** Files that differ from it (repository-relative), committed, staged, unstaged or untracked. */
  changed: z.number().int().nonnegative(),
  /** Set when the change could not be read (no git, an unknown ref): every project ran whole. */
  error: z.string().optional(),
});
export type ChangeBase = z.infer<typeof ChangeBaseSchema>;
