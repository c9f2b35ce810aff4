export { findConfigFile, CONFIG_NAMES } from './find.js';
export { loadConfig, parseConfig, projectHeal, type LoadedConfig } from './load.js';
export { formatIssues, keyPath } from './format-issues.js';
export { createGateOptions, loadReporter, type GateRequest } from './gate-options.js';
export { loadPlugin, importPlugin, instantiate, checkShape, splitSpec, type PluginRef, type PluginFactoryContext } from '../plugin/load.js';
export { PLUGIN_ALIASES, resolvePackageEntry, isPathSpec } from '../plugin/resolve.js';
export { wrapRunner, wrapAnalyzer, wrapFixer, wrapReporter } from '../plugin/wrap.js';
export { configJsonSchema, configJsonSchemaText } from './json-schema.js';
