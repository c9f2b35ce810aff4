import type { PluginSpec } from '@suture/core';
import { PLUGIN_ALIASES } from '@suture/core/internal';
import { UsageError } from '../exit.js';

/** The generator that asks an LLM fixer for tests, and its short name on the command line. */
export const LLM_GENERATOR = '@suture/generator-llm';
const LLM_ALIAS = 'llm';
const HINTS = '@suture/fixer-hints';

const idOf = (name: string): string => PLUGIN_ALIASES[name] ?? name;
const nameOf = (spec: PluginSpec): string => (typeof spec === 'string' ? spec : spec[0]);

/** The config's entry for a fixer named by alias, package or path, so it keeps its options. */
function configured(name: string, fixers: readonly PluginSpec[]): PluginSpec | undefined {
  return fixers.find((f) => idOf(nameOf(f)) === idOf(name));
}

/**
 * The generator `--generator` names, as a plugin spec. A fixer (`claude`, `openai`, a fixer of
 * the config) means the LLM generator asking that fixer with the options the config gives it
 * (model, endpoint, cassette); `llm` means the LLM generator asking the config's first LLM
 * fixer. Anything else is a generator plugin, as given.
 */
export function generatorSpec(
  name: string,
  options: Record<string, unknown>,
  fixers: readonly PluginSpec[],
): PluginSpec {
  const id = idOf(name);
  if (id === HINTS)
    throw new UsageError(
      `--generator ${name}: the hints fixer applies compiler fix-its and writes no tests; use --generator claude, --generator openai or --generator llm`,
    );
  const isFixer =
    id === PLUGIN_ALIASES.claude || id === PLUGIN_ALIASES.openai || configured(name, fixers) !== undefined;
  if (id !== LLM_GENERATOR && name !== LLM_ALIAS && !isFixer) return [name, options];
  let fixer = options.fixer ?? (isFixer ? name : undefined);
  if (fixer === undefined) {
    const first = fixers.find((f) => idOf(nameOf(f)) !== HINTS);
    if (!first)
      throw new UsageError(
        `--generator ${name} asks an LLM fixer for the tests, and the config lists none; add one to "fixers" (e.g. ["openai", { "model": "gpt-4.1-mini" }]) or name one: --generator claude, --generator openai`,
      );
    fixer = first;
  } else if (typeof fixer === 'string') fixer = configured(fixer, fixers) ?? fixer;
  return [LLM_GENERATOR, { ...options, fixer }];
}
