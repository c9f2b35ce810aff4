import { z } from 'zod';
import { BugReportSchema, EditSchema, UsageSchema } from './fix.js';
import { FailureSchema, ScopeSchema } from './failure.js';
import { FileSummarySchema } from './file-summary.js';
import { DiagnosticSchema, RunStatusSchema, TestResultSchema } from './run-result.js';
import { ChangeBaseSchema, ProjectSelectionSchema } from './selection.js';
import { TreeChangeSchema } from './tree-change.js';

/** Result of re-running a failure's tests after a proposal was applied. */
export const ValidationSchema = z.object({
  passed: z.boolean(),
  command: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
  /** Tests still failing, with their short message. */
  stillFailing: z.array(z.object({ id: z.string(), message: z.string().optional() })).default([]),
  /** Fingerprints of the failures the re-run produced (same fingerprint twice => stop). */
  fingerprints: z.array(z.string()).default([]),
  error: z.string().optional(),
  /**
   * Cases the proposal renamed (a parametrize row whose values it changed): each old id, which no
   * longer runs, with the new cases of its family that ran in its place and were held to pass.
   */
  renamed: z.record(z.string(), z.array(z.string())).optional(),
});
export type Validation = z.infer<typeof ValidationSchema>;

/**
 * The differential check of a proposal that edits tests and code under test: once the whole
 * patch passed, the failure's tests ran again with the test edits alone, over the code as it was.
 * A test that passes there was made to pass by its own edit, not by the fix: the proposal is refused.
 */
export const DifferentialSchema = z.object({
  /** The code files put back to their bytes before the proposal for the run (repository-relative). */
  restored: z.array(z.string()),
  /** The failure's tests that passed with the test edits alone (any one refuses the proposal). */
  passing: z.array(z.string()).default([]),
  command: z.string().optional(),
  durationMs: z.number().nonnegative().optional(),
  error: z.string().optional(),
});
export type Differential = z.infer<typeof DifferentialSchema>;

/** How one attempt ended. What each verdict means for the next attempt is the ladder table (engine/ladder.ts). */
export const AttemptVerdictSchema = z.enum([
  'healed', // edits applied and the failure's tests pass
  'failed-validation', // edits applied, tests still fail: rolled back
  'refused', // edits refused by the engine (scope, policy, syntax, test weakening): nothing written
  'repeated-patch', // the same patch as an earlier attempt that did not heal: not applied again
  'repeated-request', // the fixer already refused this very request: not sent again
  'product-bug', // fixer says the code under test is wrong and may not be edited
  'unfixable', // fixer gave up
  'fixer-error', // fixer threw, timed out, or returned garbage
]);
export type AttemptVerdict = z.infer<typeof AttemptVerdictSchema>;

export const AttemptSchema = z.object({
  attempt: z.number().int().positive(),
  fixer: z.string(),
  verdict: AttemptVerdictSchema,
  rationale: z.string().optional(),
  /** Why the engine refused the proposal, or why the fixer failed. */
  reason: z.string().optional(),
  edits: z.array(EditSchema).default([]),
  /** Unified diff of what was applied (or would have been). */
  diff: z.string().optional(),
  /** The proposal changes an expected value in a test: shown to reviewers. */
  expectationChanged: z.boolean().default(false),
  /**
   * Test files the proposal edits that no test model reads, so the weakening guard could not
   * compare them: only the differential check (their edits alone over the original code) guards
   * them. Shown to reviewers like an expectation change.
   */
  unreadTests: z.array(z.string()).optional(),
  validation: ValidationSchema.optional(),
  /** Set when the proposal edits tests and code: the run of its test edits alone. */
  differential: DifferentialSchema.optional(),
  usage: UsageSchema.optional(),
  durationMs: z.number().nonnegative(),
  startedAt: z.string(),
});
export type Attempt = z.infer<typeof AttemptSchema>;

export const FailureOutcomeSchema = z.enum([
  'healed',
  'product-bug',
  'flaky',
  'unfixable',
  'exhausted',
  'reverted', // healed, then undone: the regression run showed the heal broke tests that passed before
  'skipped',
  'quarantined', // every test of it is in an unexpired `heal.quarantine` entry: reported, not blocking
]);
export type FailureOutcome = z.infer<typeof FailureOutcomeSchema>;

export const FailureReportSchema = z.object({
  failure: FailureSchema,
  outcome: FailureOutcomeSchema,
  /** Why it ended that way (unrepairable reason, last refusal, "same failure came back twice"). */
  reason: z.string().optional(),
  scope: ScopeSchema.optional(),
  attempts: z.array(AttemptSchema).default([]),
  bug: BugReportSchema.optional(),
  /** Outcome `reverted`: the tests that passed before the heal and failed after it. */
  broke: z.array(z.string()).optional(),
  /**
   * The `heal.quarantine` entries its tests matched: with outcome `quarantined`, the unexpired
   * ones that kept it from blocking; with another outcome, the expired ones (it blocks again).
   */
  quarantine: z
    .array(
      z.object({
        test: z.string(),
        owner: z.string(),
        expires: z.string(),
        expired: z.boolean(),
        reason: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * Outcome `healed`: whether the heal stays in the user's tree. `true` in fix mode; `false` in
   * check mode, where the heal was validated (its tests passed on the patched code) and the tree
   * left as it was: the edits are only offered in the report's `patch`, and the tree still fails.
   * A file the user changed while suture ran keeps the user's version (listed in `conflicts`).
   */
  applied: z.boolean().optional(),
});
export type FailureReport = z.infer<typeof FailureReportSchema>;

/**
 * initial: the whole suite, first. retry: a selection (flaky triage, a patch's validation).
 * regression: the whole suite after the heals. recheck: the tests of failures still failing at the
 * end, on the final tree, when no regression run covered them.
 */
export const RoundKindSchema = z.enum(['initial', 'retry', 'regression', 'recheck']);

/**
 * Why a `retry` round ran, where its results are further attempts of the same tests on the same
 * code: `flaky-triage` re-runs failing tests on the unchanged tree to tell flaky from broken
 * (JUnit writes its results as `flakyFailure` and `rerunFailure`). A patch's validation has none.
 */
export const RoundPurposeSchema = z.enum(['flaky-triage']);

/** One run of the suite (or a selection of it) and what it found. */
export const RoundSchema = z.object({
  kind: RoundKindSchema,
  purpose: RoundPurposeSchema.optional(),
  status: RunStatusSchema,
  command: z.string(),
  durationMs: z.number().nonnegative(),
  tests: z.array(TestResultSchema),
  diagnostics: z.array(DiagnosticSchema).default([]),
  failures: z.array(z.string()).default([]),
  error: z.string().optional(),
  /**
   * Set when the runner's status contradicted the tests' own results (it said `passed` with a
   * failing test in its list, or with fewer results than it collected): the status it returned
   * and why `status` differs.
   */
  statusCorrected: z.object({ from: RunStatusSchema, reason: z.string() }).optional(),
  /** What the round's processes changed in the user's tree or `.git` that suture did not write. */
  undone: z.array(TreeChangeSchema).optional(),
});
export type Round = z.infer<typeof RoundSchema>;

/**
 * completed: nothing failed but flaky tests (counted under `totals.flaky`). healed: every other
 * failure was healed. failed_after_repair: some healed, some still fail. failed: nothing healed,
 * or the project could not be gated. cancelled: the run was cancelled before the project's gate
 * ended; what it found until then is reported, and no heal of it is applied.
 */
export const ProjectStatusSchema = z.enum([
  'completed',
  'healed',
  'failed_after_repair',
  'failed',
  'cancelled',
]);
export type ProjectStatus = z.infer<typeof ProjectStatusSchema>;

export const TotalsSchema = z.object({
  tests: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  healed: z.number().int().nonnegative(),
  stillFailing: z.number().int().nonnegative(),
  bugs: z.number().int().nonnegative(),
  flaky: z.number().int().nonnegative(),
  /** Failures whose tests are all quarantined (`heal.quarantine`): reported, not blocking. */
  quarantined: z.number().int().nonnegative().default(0),
  llmCalls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** Input tokens served from the provider's prompt cache (counted apart from `inputTokens`). */
  cacheReadTokens: z.number().int().nonnegative().default(0),
  /** Input tokens written to the provider's prompt cache. */
  cacheWriteTokens: z.number().int().nonnegative().default(0),
  costUsd: z.number().nonnegative(),
  /**
   * LLM answers replayed from a cassette: no call was made for them, so they are not in
   * `llmCalls`, the tokens or `costUsd`; each attempt's `usage.replayed` has what they recorded.
   */
  replayedAnswers: z.number().int().nonnegative().default(0),
});
export type Totals = z.infer<typeof TotalsSchema>;

/** A plugin that threw (or broke its contract) while the gate ran, and what it was doing. */
export const PluginErrorEntrySchema = z.object({
  /** The plugin's name, e.g. `@suture/runner-pytest`. */
  plugin: z.string(),
  kind: z.enum(['runner', 'analyzer', 'fixer', 'reporter']),
  /** Its config entry, e.g. `suture.config.json#projects[0].runner` (absent for built-ins). */
  origin: z.string().optional(),
  /** The method or hook that failed: `run`, `analyze`, `scope`, `propose`, `onProjectEnd`, ... */
  phase: z.string(),
  /** The project it was working on, when there was one. */
  project: z.string().optional(),
  /** What it was processing: the run, the failure and attempt, the test. */
  subject: z.string().optional(),
  message: z.string(),
  /** How many times the same plugin failed the same way in the same phase. */
  occurrences: z.number().int().positive().default(1),
});
export type PluginErrorEntry = z.infer<typeof PluginErrorEntrySchema>;

export const ProjectReportSchema = z.object({
  name: z.string(),
  root: z.string(),
  runner: z.string(),
  status: ProjectStatusSchema,
  rounds: z.array(RoundSchema),
  failures: z.array(FailureReportSchema),
  totals: TotalsSchema,
  durationMs: z.number().nonnegative(),
  /** Set when the project could not be gated at all (runner missing, toolchain missing). */
  error: z.string().optional(),
  /** Runners, analyzers and fixers that threw while gating this project. */
  pluginErrors: z.array(PluginErrorEntrySchema).default([]),
  /** Set under `--changed` (or `select: "changed"`) and when the run recorded: how the tests were chosen. */
  selection: ProjectSelectionSchema.optional(),
});
export type ProjectReport = z.infer<typeof ProjectReportSchema>;

export const ConflictSchema = z.object({ file: z.string(), reason: z.string() });

/**
 * How the runs of patched code were isolated: where patches were validated and what sandboxed
 * them (what they would have got, in a run that healed nothing). The initial run and the
 * re-runs of its failures run no patched code and run in the tree, as the project's own runner would.
 */
export const IsolationSchema = z.object({
  /** overlay: a copy-on-write view at the project's path; copy: a private copy; in-place: the tree itself, journaled. */
  workspace: z.enum(['overlay', 'copy', 'in-place']),
  /** strict: private namespaces; env-only: the environment allowlist alone; off: none. */
  sandbox: z.enum(['strict', 'env-only', 'off']),
  /** The runs had a network of their own, loopback only. */
  network: z.boolean(),
  /** Everything outside the workspace was read-only to the runs. */
  readOnly: z.boolean(),
  /** The runs' environment was an allowlist (no LLM keys, no secrets). */
  envAllowlist: z.boolean(),
  /** pid-namespace: every process a run started ended with it. */
  processes: z.enum(['pid-namespace', 'process-group']),
  /** Why something is weaker than asked, and what would fix it. */
  notes: z.array(z.string()).default([]),
});
export type Isolation = z.infer<typeof IsolationSchema>;

/** What a gate with `blocking: false` would have failed on: its exit code and the projects that failed. */
export const WouldBlockSchema = z.object({
  exitCode: z.number().int(),
  stillFailing: z.number().int().nonnegative(),
  projects: z.array(z.object({ name: z.string(), status: ProjectStatusSchema })),
});
export type WouldBlock = z.infer<typeof WouldBlockSchema>;

export const GateReportSchema = z.object({
  /** 2: project status `healed` (was `recovered`), failure outcome `reverted`, `pluginErrors`. */
  schemaVersion: z.literal(2),
  runId: z.string(),
  /**
   * The repository root (the config file's folder): absolute in the report a gate returns, `.` in
   * the files a run writes (report.json, `--json`), whose paths are all repository-relative.
   */
  root: z.string(),
  startedAt: z.string(),
  finishedAt: z.string(),
  durationMs: z.number().nonnegative(),
  mode: z.enum(['check', 'fix', 'no-heal']),
  projects: z.array(ProjectReportSchema),
  totals: TotalsSchema,
  /** Unified diff of every validated heal that was kept (fix mode) or would be (check mode). */
  patch: z.string(),
  /** Files the user changed while suture ran: the user's version was kept. */
  conflicts: z.array(ConflictSchema).default([]),
  /** Set under `--changed` (or `select: "changed"`): the commit the change was measured against. */
  selection: ChangeBaseSchema.optional(),
  /** Where the runs of patched code happened and how they were sandboxed (absent in reports of older versions). */
  isolation: IsolationSchema.optional(),
  /** Process exit code the CLI uses: 0 green, 1 failures remain, 3 internal error, 130 cancelled. */
  exitCode: z.number().int(),
  /**
   * Set when the run was cancelled (Ctrl-C, SIGTERM, the dashboard's cancel button): exit code
   * 130, what finished is reported, and a test the cancel cut short is skipped as "not finished:
   * cancelled", never a failure.
   */
  cancelled: z.boolean().optional(),
  /** false when the gate ran with `blocking: false` (`suture run --no-block`): failures that remain exit 0. */
  blocking: z.boolean().default(true),
  /** Set when `blocking: false` let failures through: what would have failed the gate. */
  wouldBlock: WouldBlockSchema.optional(),
  /** The results per test file of each project. */
  files: z.array(FileSummarySchema).default([]),
  /** Where the run's artifacts were written. */
  runDir: z.string().optional(),
  /** Set when the gate itself failed (exit code 3). */
  error: z.string().optional(),
  /** Reporters that threw; each project's own plugin errors are in `projects[].pluginErrors`. */
  pluginErrors: z.array(PluginErrorEntrySchema).default([]),
});
export type GateReport = z.infer<typeof GateReportSchema>;
