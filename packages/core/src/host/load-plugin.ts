import { stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ZodError } from 'zod';
import type { PluginSpec } from '../api/contracts/config.js';
import { formatIssues } from './format-issues.js';
import { editDistance } from '../text/edit-distance.js';
import { errorMessage, PluginError, type PluginOrigin } from '../api/errors.js';
import { isPathSpec, PLUGIN_ALIASES, resolvePackageEntry } from './resolve-plugin.js';
import { apiUpgradeHint, checkApiVersion } from './api-version.js';
import { asPlugin, catchPluginExitsSync, PluginExitError } from '../safety/process/plugin-exits.js';
import {
  API_VERSION,
  type Analyzer,
  type Fixer,
  type Generator as GeneratorPlugin,
  type PluginFactoryContext,
  type PluginKind,
  type Reporter,
  type Runner,
} from '../api/plugin.js';

export interface PluginRef {
  /** The name as written in the config. */
  spec: string;
  /** The package or path it resolved to. */
  id: string;
  options: Record<string, unknown>;
  origin: PluginOrigin;
}

export function splitSpec(spec: PluginSpec, origin: PluginOrigin): PluginRef {
  const [name, options] = typeof spec === 'string' ? [spec, {}] : spec;
  return { spec: name, id: PLUGIN_ALIASES[name] ?? name, options, origin };
}

/** Imports a plugin module named by package, alias or path, resolved from `fromDir`. */
export async function importPlugin(ref: PluginRef, fromDir: string): Promise<unknown> {
  let file: string | undefined;
  if (isPathSpec(ref.id)) {
    file = resolve(fromDir, ref.id);
    if (!(await stat(file).catch(() => undefined))) {
      throw new PluginError(
        ref.spec,
        ref.origin,
        `file ${file} does not exist; check the path (it is relative to the config file)`,
      );
    }
  } else {
    file = await resolvePackageEntry(ref.id, fromDir);
    if (!file) {
      const alias = ref.id === ref.spec ? nearAlias(ref.spec) : undefined;
      if (alias) {
        throw new PluginError(
          ref.spec,
          ref.origin,
          `unknown plugin "${ref.spec}"; did you mean "${alias}" (${PLUGIN_ALIASES[alias]})?`,
        );
      }
      throw new PluginError(
        ref.spec,
        ref.origin,
        `cannot find package "${ref.id}"; install it with \`npm install -D ${ref.id}\``,
      );
    }
  }
  try {
    // jiti (a TypeScript loader of its own) is loaded only for a plugin written in TypeScript
    if (extname(file) === '.ts' || extname(file) === '.mts')
      return await (await import('jiti')).createJiti(pathToFileURL(fromDir).href + '/').import(file);
    return await import(pathToFileURL(file).href);
  } catch (error) {
    throw new PluginError(ref.spec, ref.origin, `cannot load ${file}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/** The alias a misspelled plugin name was meant to be, when one is within two edits. */
function nearAlias(name: string): string | undefined {
  const close = Object.keys(PLUGIN_ALIASES)
    .map((alias) => ({ alias, d: editDistance(name.toLowerCase(), alias) }))
    .filter((x) => x.d <= 2)
    .sort((a, b) => a.d - b.d);
  return close.length > 0 && (close.length === 1 || close[1]!.d > close[0]!.d) ? close[0]!.alias : undefined;
}

const REQUIRED: Record<PluginKind, string[]> = {
  runner: ['run'],
  analyzer: ['analyze', 'scope'],
  fixer: ['propose'],
  reporter: [],
  generator: ['generate'],
};

/** Checks a plugin object's shape and API version; says what was expected. */
export function checkShape(value: unknown, kind: PluginKind, ref: PluginRef): void {
  const fail = (detail: string): never => {
    throw new PluginError(ref.spec, ref.origin, detail);
  };
  if (!value || typeof value !== 'object')
    fail(
      `expected a ${kind} plugin object (or a factory returning one), got ${value === null ? 'null' : typeof value}`,
    );
  const plugin = value as Record<string, unknown>;
  if (typeof plugin.name !== 'string' || plugin.name.length === 0)
    fail(`a ${kind} plugin must have a string "name"`);
  const api = checkApiVersion(plugin);
  if (!api.ok) fail(`${api.reason}; ${apiUpgradeHint(api, { id: ref.id, isPath: isPathSpec(ref.id) })}`);
  for (const method of REQUIRED[kind]) {
    if (typeof plugin[method] !== 'function') fail(`a ${kind} plugin must have a "${method}" function`);
  }
  if (kind === 'runner' || kind === 'generator') {
    if (typeof plugin.language !== 'string') fail(`a ${kind} must declare its "language"`);
    if (kind === 'runner' && typeof plugin.supportsSelection !== 'boolean')
      fail('a runner must declare "supportsSelection" (true or false)');
  }
  if (
    kind === 'reporter' &&
    !Object.keys(plugin).some((k) => k.startsWith('on') && typeof plugin[k] === 'function')
  ) {
    fail(
      'a reporter must implement at least one hook (onRunStart, onTestResult, onAttemptEnd, onProjectEnd, onRunEnd, ...)',
    );
  }
}

/** Calls the module's factory with the options and the context (or takes its plugin object). */
export function instantiate(mod: unknown, ref: PluginRef, context: PluginFactoryContext): unknown {
  const m = mod as { default?: unknown; plugin?: unknown };
  const exported = m.default ?? m.plugin ?? mod;
  if (typeof exported !== 'function') return exported;
  const factory = exported as (options: Record<string, unknown>, context: PluginFactoryContext) => unknown;
  // an exit while the config loads would end suture with the plugin's code, 0 (green) as often as not
  const frame = { plugin: ref.spec, hook: 'its factory' };
  try {
    return catchPluginExitsSync(() => asPlugin(frame, () => factory(ref.options, context)));
  } catch (error) {
    if (error instanceof PluginExitError)
      throw new PluginError(
        ref.spec,
        ref.origin,
        `called process.exit(${String(error.exit.code ?? '')}) in its factory; a plugin must return or throw, never end the process`,
      );
    if (error instanceof ZodError) {
      throw new PluginError(
        ref.spec,
        ref.origin,
        `invalid options:\n${formatIssues(error, ref.options)
          .map((l) => `  - ${l}`)
          .join('\n')}`,
      );
    }
    throw new PluginError(ref.spec, ref.origin, errorMessage(error), { cause: error });
  }
}

export async function loadPlugin(kind: 'runner', ref: PluginRef, fromDir: string): Promise<Runner>;
export async function loadPlugin(kind: 'analyzer', ref: PluginRef, fromDir: string): Promise<Analyzer>;
export async function loadPlugin(kind: 'fixer', ref: PluginRef, fromDir: string): Promise<Fixer>;
export async function loadPlugin(kind: 'reporter', ref: PluginRef, fromDir: string): Promise<Reporter>;
export async function loadPlugin(
  kind: 'generator',
  ref: PluginRef,
  fromDir: string,
): Promise<GeneratorPlugin>;
export async function loadPlugin(kind: PluginKind, ref: PluginRef, fromDir: string): Promise<unknown> {
  const plugin = instantiate(await importPlugin(ref, fromDir), ref, {
    configDir: resolve(fromDir),
    apiVersion: API_VERSION,
  });
  checkShape(plugin, kind, ref);
  return plugin;
}
