/**
 * `@suture/core/internal`: the engine and host for the `suture` CLI and first-party tests. Not a
 * public API: it changes without notice between minor versions.
 */
export { runGate, newRunId, UnrecoveredJournalError } from './engine/gate.js';
export type { GateOptions, GateProject, RunGate, SelectionOptions } from './engine/types.js';
export { mergeSelectionRecords, readRecords, selectionDir } from './engine/select/store.js';
export { validateEdits, MAX_EDIT_BYTES, type PlannedWrite, type ProposalCheck } from './engine/validate.js';
export { checkTestWeakening, type WeakeningOptions, type WeakeningVerdict } from './engine/weakening.js';
export { buildFixRequest, sourceSlices, sourcesOf, trimEvidence } from './engine/fix-request.js';
export { proposeHeal, healScratch, type AgentCallOptions } from './host/agent/propose-heal.js';
export { applyProposedPatch } from './host/agent/apply-patch.js';
export { runForAgent, reportForAgent, runAnswerOf } from './host/agent/agent-run.js';
export { AgentInputError, RepositoryBusyError } from './host/agent/errors.js';
export { parseToolInput } from './host/agent/input.js';
export { sessionsDir, type SessionState } from './host/agent/session-store.js';
export {
  HealInputSchema,
  HealAnswerSchema,
  HealPatchSchema,
  AnalysisFailureSchema,
  type HealInput,
  type HealAnswer,
  type HealPatch,
  type AnalysisFailure,
} from './api/contracts/heal.js';
export {
  RunInputSchema,
  RunAnswerSchema,
  ApplyInputSchema,
  ApplyAnswerSchema,
  ReportInputSchema,
  ReportAnswerSchema,
  type RunInput,
  type RunAnswer,
  type ApplyInput,
  type ApplyAnswer,
  type ReportInput,
  type ReportAnswer,
} from './api/contracts/agent-tools.js';
export {
  runAutoRun,
  autoRunDir,
  renderAutoRunMarkdown,
  coverageProbeFor,
  coveragePy,
  parseCoveragePy,
  istanbulJest,
  parseIstanbul,
  gcovr,
  parseGcovr,
  CoverageError,
  entryOf,
  linkedLibraries,
  projectFiles,
  type AutoRunOptions,
  type GenerationSource,
  type CoverageData,
  type CoverageProbe,
  type CoverageRequest,
} from './engine/generate/index.js';

export { findConfigFile, CONFIG_NAMES } from './host/find-config.js';
export { loadConfig, parseConfig, projectHeal, type LoadedConfig } from './host/load-config.js';
export { formatIssues, keyPath } from './host/format-issues.js';
export { createGateOptions, loadReporter, type GateRequest } from './host/gate-options.js';
export { loadPlugin, instantiate, splitSpec, type PluginRef } from './host/load-plugin.js';
export { wrapGenerator } from './host/wrap-plugin.js';
export { PLUGIN_ALIASES, resolvePackageEntry, isPathSpec } from './host/resolve-plugin.js';
export { configJsonSchema, configJsonSchemaText } from './host/json-schema.js';
export { errorMessage, formatOrigin, usageOfError } from './api/errors.js';

export { Journal, recover, hasJournal, type RestoreOutcome } from './safety/journal.js';
export { openWorkspace, planIsolation } from './safety/workspace/open-workspace.js';
export { isolationChecks } from './safety/workspace/doctor.js';
export { takeSnapshot, undoChanges, type GuardTarget } from './safety/tree-guard/tree-guard.js';
export { isolationSupport, type IsolationSupport } from './safety/sandbox/support.js';
export type {
  Workspace,
  WorkspaceChoice,
  WorkspaceEdit,
  WorkspaceMode,
  WorkspaceOptions,
  SandboxChoice,
  IsolationInForce,
} from './safety/workspace/types.js';
export { journalDir, SUTURE_DIR } from './safety/suture-dir.js';
export { acquireLock, LockError, type RepoLock } from './safety/lock.js';
export { fileDiff, gitApplyCommand } from './safety/patch.js';
export { createRedactor, type Redactor } from './safety/redact.js';

export {
  BUILTIN_REPORTERS,
  createBuiltinReporter,
  type BuiltinReporterContext,
  type BuiltinReporterName,
} from './reporters/builtin.js';
export { renderJunit, type JunitFlavor } from './reporters/junit.js';
export { renderMarkdown } from './reporters/markdown.js';
export { portableReport, rootSpellings } from './reporters/portable.js';
export { mergeReports, MergeError, type MergeInput, type MergeOptions } from './report/merge-reports.js';
