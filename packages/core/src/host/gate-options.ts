import { join, resolve } from 'node:path';
import type { PluginSpec } from '../api/contracts/config.js';
import type { GateOptions, GateProject, SelectionOptions } from '../engine/types.js';
import { ConfigError, PluginError } from '../api/errors.js';
import { loadPlugin, splitSpec, type PluginRef } from './load-plugin.js';
import { PLUGIN_ALIASES } from './resolve-plugin.js';
import type { Fixer, GateMode, Logger, Reporter } from '../api/plugin.js';
import { wrapAnalyzer, wrapFixer, wrapReporter, wrapRunner } from './wrap-plugin.js';
import { createBuiltinReporter, type BuiltinReporterContext } from '../reporters/builtin.js';
import { projectHeal, type LoadedConfig } from './load-config.js';

export interface GateRequest {
  mode: GateMode;
  /** Project names to gate (all when empty). */
  projects?: string[];
  /** Narrow the fixer ladder to these (alias, package name or plugin name). */
  fixers?: string[];
  maxAttempts?: number;
  /**
   * Re-runs of failed tests for flaky triage (`--retries N`), over the config's `flakyReruns`.
   * Unset in `no-heal` mode means none: a gate that heals nothing re-runs nothing.
   */
  retries?: number;
  /** Replace the configured reporters. */
  reporters?: string[];
  concurrency?: number;
  /** false (`--no-block`) overrides the config's `blocking`. */
  blocking?: boolean;
  /**
   * `--changed [REF]`: run only what the change since REF can reach (`true`: since the merge base
   * with the default branch), over the config's `select`.
   */
  changed?: string | true;
  /** `--record`: green runs add to the selection record, over the config's `record`. */
  record?: boolean;
  logger: Logger;
  output: BuiltinReporterContext;
  signal?: AbortSignal;
}

export async function loadReporter(
  spec: PluginSpec,
  keyPath: string,
  loaded: LoadedConfig,
  output: BuiltinReporterContext,
  logger: Logger,
): Promise<Reporter> {
  const ref = splitSpec(spec, { configFile: loaded.display, keyPath });
  try {
    const builtin = createBuiltinReporter(ref.spec, ref.options, output);
    if (builtin) return builtin;
  } catch (error) {
    throw new PluginError(ref.spec, ref.origin, `invalid options: ${(error as Error).message}`);
  }
  return wrapReporter(await loadPlugin('reporter', ref, loaded.dir), ref.origin, logger);
}

function matchesFixer(ref: PluginRef, fixer: Fixer, wanted: string): boolean {
  const id = PLUGIN_ALIASES[wanted] ?? wanted;
  return ref.spec === wanted || ref.id === id || fixer.name === wanted || fixer.name === id;
}

function selectionOf(
  select: 'all' | 'changed',
  record: boolean | undefined,
  request: GateRequest,
): SelectionOptions {
  const mode = request.changed !== undefined ? 'changed' : select;
  return {
    mode,
    ...(typeof request.changed === 'string' ? { ref: request.changed } : {}),
    record: request.record ?? record ?? (mode === 'changed' ? 'auto' : false),
  };
}

/** Turns a loaded config and command-line choices into the engine's GateOptions, loading every plugin. */
export async function createGateOptions(loaded: LoadedConfig, request: GateRequest): Promise<GateOptions> {
  const { config } = loaded;
  const names = config.projects.map((p) => p.name);
  for (const wanted of request.projects ?? []) {
    if (!names.includes(wanted))
      throw new ConfigError(
        `unknown project "${wanted}"; ${loaded.display} defines: ${names.join(', ')}`,
        loaded.file,
      );
  }
  const projects: GateProject[] = [];
  for (const [i, p] of config.projects.entries()) {
    if (request.projects?.length && !request.projects.includes(p.name)) continue;
    const runnerRef = splitSpec(p.runner, { configFile: loaded.display, keyPath: `projects[${i}].runner` });
    const runner = wrapRunner(
      await loadPlugin('runner', runnerRef, loaded.dir),
      runnerRef.origin,
      request.logger,
    );
    let analyzer;
    if (p.analyzer) {
      const ref = splitSpec(p.analyzer, { configFile: loaded.display, keyPath: `projects[${i}].analyzer` });
      analyzer = wrapAnalyzer(await loadPlugin('analyzer', ref, loaded.dir), ref.origin, request.logger);
    } else if (runner.analyzer) {
      analyzer = runner.analyzer();
    } else {
      throw new PluginError(
        runnerRef.spec,
        runnerRef.origin,
        'this runner brings no analyzer; name one with "analyzer" in the project entry',
      );
    }
    const heal = projectHeal(config, i);
    if (request.maxAttempts) heal.maxAttempts = request.maxAttempts;
    if (request.retries !== undefined) heal.flakyReruns = request.retries;
    else if (request.mode === 'no-heal') heal.flakyReruns = 0;
    projects.push({
      name: p.name,
      root: resolve(loaded.dir, p.root),
      runner,
      analyzer,
      timeoutMs: p.timeoutMs ?? config.timeoutMs,
      heal,
    });
  }

  const fixers: Fixer[] = [];
  const refs: PluginRef[] = [];
  // --no-heal asks no fixer: none is loaded, unless --fixer names one to check against the config
  const asked = request.mode !== 'no-heal' || (request.fixers?.length ?? 0) > 0;
  for (const [i, spec] of asked ? config.fixers.entries() : []) {
    const ref = splitSpec(spec, { configFile: loaded.display, keyPath: `fixers[${i}]` });
    fixers.push(wrapFixer(await loadPlugin('fixer', ref, loaded.dir), ref.origin, request.logger));
    refs.push(ref);
  }
  let ladder = fixers;
  if (request.fixers?.length) {
    ladder = fixers.filter((f, i) => request.fixers!.some((w) => matchesFixer(refs[i]!, f, w)));
    const missing = request.fixers.filter((w) => !fixers.some((f, i) => matchesFixer(refs[i]!, f, w)));
    if (missing.length)
      throw new ConfigError(
        `--fixer ${missing.join(', ')}: not in ${loaded.display}#fixers (configured: ${refs.map((r) => r.spec).join(', ') || 'none'})`,
        loaded.file,
      );
  }

  const reporterSpecs: Array<[PluginSpec, string]> = request.reporters?.length
    ? request.reporters.map((r) => [r, `--reporter ${r}`])
    : config.reporters.map((r, i) => [r, `reporters[${i}]`]);
  const reporters: Reporter[] = [];
  for (const [spec, keyPath] of reporterSpecs)
    reporters.push(await loadReporter(spec, keyPath, loaded, request.output, request.logger));

  return {
    root: loaded.dir,
    outputDir: resolve(loaded.dir, config.outputDir ?? join('.suture', 'runs')),
    mode: request.mode,
    projects,
    fixers: ladder,
    reporters,
    concurrency: request.concurrency ?? config.concurrency,
    blocking: request.blocking ?? config.blocking,
    ...(config.budget ? { budget: config.budget } : {}),
    ...(config.secrets ? { secrets: config.secrets } : {}),
    workspace: config.workspace,
    sandbox: config.sandbox,
    sandboxEnv: config.sandboxEnv,
    sandboxHome: config.sandboxHome,
    selection: selectionOf(config.select, config.record, request),
    logger: request.logger,
    ...(request.signal ? { signal: request.signal } : {}),
  };
}
