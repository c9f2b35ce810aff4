/**
 * The public API of `@suture/core`: what a plugin author reads. Contracts (zod schemas and their
 * types), the plugin interfaces, the `define*` helpers, the errors plugins throw, and `runProcess`
 * for running a toolchain the way the engine expects. Every export is listed by name; the API
 * report test (`api-report.test.ts`) fails when this list changes without its report.
 *
 * Kits live on subpaths: `@suture/core/analysis` (tree-sitter, graph walk, fingerprints,
 * grouping, test files), `@suture/core/llm` (prompts, answers, pricing, the LLM fixer base),
 * `@suture/core/testing` (conformance kits). `@suture/core/internal` is for the CLI only.
 */
export { z } from 'zod';

export {
  API_VERSION,
  MIN_API_VERSION,
  type Analyzer,
  type ApiRange,
  type AttemptEndEvent,
  type AttemptStartEvent,
  type DetectedProject,
  type DoctorCheck,
  type Fixer,
  type FixerContext,
  type GateMode,
  type GenerateFeedback,
  type GenerateRequest,
  type GenerateResult,
  type GeneratedFile,
  type GeneratedTest,
  type Generator,
  type GeneratorContext,
  type Logger,
  type Plugin,
  type PluginBase,
  type PluginFactoryContext,
  type PluginKind,
  type ProjectEndEvent,
  type ProjectInfo,
  type ProjectStartEvent,
  type Reporter,
  type RoundEndEvent,
  type RunContext,
  type RunEndContext,
  type Runner,
  type RunStartEvent,
  type TestResultEvent,
} from './api/plugin.js';
export type { AssertionFact, TestFact, TestFileModel } from './api/test-model.js';
export {
  defineAnalyzer,
  defineConfig,
  defineFixer,
  defineGenerator,
  defineReporter,
  defineRunner,
} from './api/define.js';
export { ConfigError, FixerError, PluginError, type PluginOrigin } from './api/errors.js';
export { FixerUnavailableError, isFixerUnavailable } from './api/fixer-unavailable.js';
export type { SpendGuard } from './api/spend.js';

export {
  DiagnosticSchema,
  FixItSchema,
  RunResultSchema,
  RunStatusSchema,
  SeveritySchema,
  TestResultSchema,
  TestStatusSchema,
  type Diagnostic,
  type FixIt,
  type RunResult,
  type RunResultInput,
  type RunStatus,
  type Severity,
  type TestResult,
  type TestStatus,
} from './api/contracts/run-result.js';
export {
  FailureKindSchema,
  FailureSchema,
  LocationSchema,
  RankedSymbolSchema,
  ScopeEntrySchema,
  ScopeRoleSchema,
  ScopeSchema,
  UNREPAIRABLE_KINDS,
  type Failure,
  type FailureInput,
  type FailureKind,
  type Location,
  type RankedSymbol,
  type Scope,
  type ScopeEntry,
  type ScopeInput,
  type ScopeRole,
} from './api/contracts/failure.js';
export {
  AttemptSummarySchema,
  BugReportSchema,
  EditPolicySchema,
  EditSchema,
  EditableSchema,
  FixProposalSchema,
  FixRequestSchema,
  OmittedSourceSchema,
  ReplayedUsageSchema,
  SourceSliceSchema,
  UsageSchema,
  type AttemptSummary,
  type BugReport,
  type Edit,
  type EditPolicy,
  type Editable,
  type FixProposal,
  type FixProposalInput,
  type FixRequest,
  type OmittedSource,
  type ReplayedUsage,
  type SourceSlice,
  type Usage,
} from './api/contracts/fix.js';
export {
  AttemptSchema,
  AttemptVerdictSchema,
  ConflictSchema,
  DifferentialSchema,
  FailureOutcomeSchema,
  FailureReportSchema,
  GateReportSchema,
  IsolationSchema,
  PluginErrorEntrySchema,
  ProjectReportSchema,
  ProjectStatusSchema,
  RoundKindSchema,
  RoundPurposeSchema,
  RoundSchema,
  TotalsSchema,
  ValidationSchema,
  type Attempt,
  type AttemptVerdict,
  type Differential,
  type FailureOutcome,
  type FailureReport,
  type Isolation,
  type GateReport,
  type PluginErrorEntry,
  type ProjectReport,
  type ProjectStatus,
  type Round,
  type Totals,
  type Validation,
} from './api/contracts/report.js';
export {
  ConfigSchema,
  HealConfigSchema,
  PluginSpecSchema,
  QuarantineEntrySchema,
  ProjectConfigSchema,
  type Config,
  type ConfigInput,
  type HealConfig,
  type QuarantineEntry,
  type PluginSpec,
  type ProjectConfig,
} from './api/contracts/config.js';
export { BudgetConfigSchema, type BudgetConfig } from './api/contracts/budget.js';
export { SecretsConfigSchema, type SecretsConfig } from './api/contracts/secrets.js';

export { runProcess, type ProcessResult, type RunProcessOptions } from './safety/process/run-process.js';
export { makeIgnoredDir, type IgnoredDirOptions } from './safety/ignored-dir.js';
export {
  FileStateSchema,
  FileSummarySchema,
  type FileState,
  type FileSummary,
} from './api/contracts/file-summary.js';
export { WouldBlockSchema, type WouldBlock } from './api/contracts/report.js';
export {
  AuditEntrySchema,
  AutoRunAttemptSchema,
  AutoRunGenerationSchema,
  AutoRunReportSchema,
  AutoRunRollbackSchema,
  AutoRunTestSchema,
  AutoRunVerdictSchema,
  CoverageCountsSchema,
  FileLinesSchema,
  RollbackStrategySchema,
  type AuditEntry,
  type AutoRunAttempt,
  type AutoRunGeneration,
  type AutoRunReport,
  type AutoRunRollback,
  type AutoRunTest,
  type AutoRunVerdict,
  type CoverageCounts,
  type FileLines,
  type RollbackStrategy,
} from './api/contracts/autorun.js';
export { portableReport, rootSpellings } from './reporters/portable.js';
