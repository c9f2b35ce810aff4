import type { ConfigInput } from './contracts/config.js';
import type { Analyzer, Fixer, Generator as GeneratorPlugin, Reporter, Runner } from './plugin.js';

/** Identity helpers for type inference in plugin and config files. */
export function defineRunner<T extends Runner>(runner: T): T {
  return runner;
}
export function defineAnalyzer<T extends Analyzer>(analyzer: T): T {
  return analyzer;
}
export function defineFixer<T extends Fixer>(fixer: T): T {
  return fixer;
}
export function defineReporter<T extends Reporter>(reporter: T): T {
  return reporter;
}
export function defineGenerator<T extends GeneratorPlugin>(generator: T): T {
  return generator;
}
export function defineConfig(config: ConfigInput): ConfigInput {
  return config;
}
