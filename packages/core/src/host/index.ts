/**
 * `@suture/core/host`: what a tool or plugin that drives suture itself builds on, as the CLI does:
 * load and check a config, load plugins by name, run a gate (a generator runs a nested gate over
 * the suite it wrote), and the propose-only agent service behind `suture mcp`. Part of the plugin
 * API: versioned with `API_VERSION`, and deprecated parts are kept as docs/compatibility.md says.
 */
export { findConfigFile, CONFIG_NAMES } from './find-config.js';
export { loadConfig, parseConfig, type LoadedConfig } from './load-config.js';
export { createGateOptions, type GateRequest } from './gate-options.js';
export { loadPlugin, splitSpec, type PluginRef } from './load-plugin.js';
export { PLUGIN_ALIASES, resolvePackageEntry, isPathSpec } from './resolve-plugin.js';
export { runGate, newRunId } from '../engine/gate.js';
export type { GateOptions, GateProject, RunGate } from '../engine/types.js';
export { entryOf } from '../engine/generate/cmake.js';
export { errorMessage } from '../api/errors.js';

export { proposeHeal, type AgentCallOptions } from './agent/propose-heal.js';
export { applyProposedPatch } from './agent/apply-patch.js';
export { runForAgent, reportForAgent } from './agent/agent-run.js';
export { AgentInputError, RepositoryBusyError } from './agent/errors.js';
export { HealInputSchema, HealAnswerSchema, type HealInput, type HealAnswer } from '../api/contracts/heal.js';
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
} from '../api/contracts/agent-tools.js';
