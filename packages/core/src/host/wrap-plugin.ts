import type { PluginOrigin } from '../api/errors.js';
import type {
  Analyzer,
  Fixer,
  Generator as GeneratorPlugin,
  Logger,
  Reporter,
  Runner,
} from '../api/plugin.js';
import { wrapWith, type HookTable } from './hook-table.js';
import { runWithinLimit } from './runner-limit.js';

/*
 * Core never calls a raw plugin method: each wrapper is built from its kind's table, which names
 * every key of the interface and how it is carried (Nx's loaded-plugin adapter is the model, and
 * pluggy's check of each hook against its spec). hook-table.ts says what each rule guarantees.
 */

export const ANALYZER_HOOKS: HookTable<Analyzer> = {
  analyze: { kind: 'call' },
  scope: { kind: 'call' },
  isTestFile: { kind: 'sync', fallback: false },
  checkSyntax: { kind: 'sync', fallback: undefined },
  checkTampering: { kind: 'sync', fallback: undefined },
  testModel: { kind: 'sync', fallback: undefined },
};

export const RUNNER_HOOKS: HookTable<Runner> = {
  language: { kind: 'field' },
  supportsSelection: { kind: 'field' },
  supportsFileSelection: { kind: 'field' },
  supportsRecording: { kind: 'field' },
  selectionRules: { kind: 'call' },
  run: { kind: 'custom', wrap: runWithinLimit },
  detect: { kind: 'call' },
  // the analyzer a runner brings is a plugin of its own, wrapped under the runner's config entry
  analyzer: { kind: 'custom', wrap: (analyzer, w) => () => wrapAnalyzer(analyzer(), w.origin, w.logger) },
  doctor: { kind: 'call' },
  sandboxPaths: { kind: 'call' },
};

export const FIXER_HOOKS: HookTable<Fixer> = {
  kinds: { kind: 'field' },
  propose: { kind: 'call' },
  doctor: { kind: 'call' },
};

/** Every reporter hook, in the order of a run. */
export const REPORTER_HOOKS = [
  'onRunStart',
  'onProjectStart',
  'onTestResult',
  'onRoundEnd',
  'onAttemptStart',
  'onAttemptEnd',
  'onProjectEnd',
  'onRunEnd',
] as const satisfies ReadonlyArray<keyof Reporter>;

export const REPORTER_HOOK_TABLE: HookTable<Reporter> = Object.fromEntries(
  REPORTER_HOOKS.map((hook) => [hook, { kind: 'call' }]),
) as Record<(typeof REPORTER_HOOKS)[number], { kind: 'call' }>;

export const GENERATOR_HOOKS: HookTable<GeneratorPlugin> = {
  language: { kind: 'field' },
  generate: { kind: 'call' },
  doctor: { kind: 'call' },
};

export function wrapRunner(runner: Runner, origin: PluginOrigin | undefined, logger: Logger): Runner {
  return wrapWith(runner, RUNNER_HOOKS, { name: runner.name, origin, logger });
}

export function wrapAnalyzer(analyzer: Analyzer, origin: PluginOrigin | undefined, logger: Logger): Analyzer {
  return wrapWith(analyzer, ANALYZER_HOOKS, { name: analyzer.name, origin, logger });
}

export function wrapFixer(fixer: Fixer, origin: PluginOrigin | undefined, logger: Logger): Fixer {
  return wrapWith(fixer, FIXER_HOOKS, { name: fixer.name, origin, logger });
}

export function wrapReporter(reporter: Reporter, origin: PluginOrigin | undefined, logger: Logger): Reporter {
  return wrapWith(reporter, REPORTER_HOOK_TABLE, { name: reporter.name, origin, logger });
}

export function wrapGenerator(
  generator: GeneratorPlugin,
  origin: PluginOrigin | undefined,
  logger: Logger,
): GeneratorPlugin {
  return wrapWith(generator, GENERATOR_HOOKS, { name: generator.name, origin, logger });
}
