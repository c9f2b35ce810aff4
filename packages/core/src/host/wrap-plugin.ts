import { errorMessage, PluginError, type PluginOrigin } from '../api/errors.js';
import type {
  Analyzer,
  Fixer,
  Generator as GeneratorPlugin,
  Logger,
  PluginBase,
  Reporter,
  Runner,
} from '../api/plugin.js';

/**
 * Core never calls a raw plugin method: each call is timed and a throw becomes a PluginError that
 * names the plugin and its config entry (Nx's loaded-plugin adapter is the model).
 */
function guard<A extends unknown[], R>(
  name: string,
  origin: PluginOrigin | undefined,
  method: string,
  logger: Logger,
  fn: (...args: A) => Promise<R> | R,
): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    const started = Date.now();
    try {
      return await fn(...args);
    } catch (error) {
      if (error instanceof PluginError) throw error;
      throw new PluginError(name, origin, errorMessage(error), { cause: error });
    } finally {
      logger.debug(`${name}.${method} took ${Date.now() - started} ms`);
    }
  };
}

/** The identity a wrapper keeps: name and the declared API versions. */
function identity(plugin: PluginBase): PluginBase {
  return {
    name: plugin.name,
    apiVersion: plugin.apiVersion,
    ...(plugin.apiRange ? { apiRange: plugin.apiRange } : {}),
  };
}

export function wrapRunner(runner: Runner, origin: PluginOrigin | undefined, logger: Logger): Runner {
  const g = <A extends unknown[], R>(m: string, fn: (...a: A) => Promise<R> | R) =>
    guard(runner.name, origin, m, logger, fn);
  return {
    ...identity(runner),
    language: runner.language,
    supportsSelection: runner.supportsSelection,
    ...(runner.supportsFileSelection ? { supportsFileSelection: true } : {}),
    run: g('run', runner.run.bind(runner)),
    ...(runner.detect ? { detect: g('detect', runner.detect.bind(runner)) } : {}),
    ...(runner.analyzer ? { analyzer: () => wrapAnalyzer(runner.analyzer!(), origin, logger) } : {}),
    ...(runner.doctor ? { doctor: g('doctor', runner.doctor.bind(runner)) } : {}),
  };
}

export function wrapAnalyzer(analyzer: Analyzer, origin: PluginOrigin | undefined, logger: Logger): Analyzer {
  const g = <A extends unknown[], R>(m: string, fn: (...a: A) => Promise<R> | R) =>
    guard(analyzer.name, origin, m, logger, fn);
  return {
    ...identity(analyzer),
    analyze: g('analyze', analyzer.analyze.bind(analyzer)),
    scope: g('scope', analyzer.scope.bind(analyzer)),
    // synchronous hooks: a throw means "cannot tell", never a crash of the gate, but it is said
    ...(analyzer.isTestFile
      ? {
          isTestFile: (file: string) =>
            safe(
              () => analyzer.isTestFile!(file),
              false,
              (error) => warnCannotTell(analyzer.name, origin, `isTestFile(${file})`, error, logger),
            ),
        }
      : {}),
    ...(analyzer.checkSyntax
      ? {
          checkSyntax: (file: string, content: string) =>
            safe(
              () => analyzer.checkSyntax!(file, content),
              undefined,
              (error) => warnCannotTell(analyzer.name, origin, `checkSyntax(${file})`, error, logger),
            ),
        }
      : {}),
    ...(analyzer.checkTampering
      ? {
          checkTampering: (file: string, before: string | undefined, after: string) =>
            safe(
              () => analyzer.checkTampering!(file, before, after),
              undefined,
              (error) => warnCannotTell(analyzer.name, origin, `checkTampering(${file})`, error, logger),
            ),
        }
      : {}),
  };
}

function safe<T>(fn: () => T, fallback: T, onError: (error: unknown) => void): T {
  try {
    return fn();
  } catch (error) {
    onError(error);
    return fallback;
  }
}

function warnCannotTell(
  name: string,
  origin: PluginOrigin | undefined,
  call: string,
  error: unknown,
  logger: Logger,
): void {
  const which = new PluginError(name, origin, errorMessage(error)).message;
  logger.warn(`${which} (in ${call}; taken as "cannot tell")`);
}

export function wrapFixer(fixer: Fixer, origin: PluginOrigin | undefined, logger: Logger): Fixer {
  const g = <A extends unknown[], R>(m: string, fn: (...a: A) => Promise<R> | R) =>
    guard(fixer.name, origin, m, logger, fn);
  return {
    ...identity(fixer),
    ...(fixer.kinds ? { kinds: fixer.kinds } : {}),
    propose: g('propose', fixer.propose.bind(fixer)),
    ...(fixer.doctor ? { doctor: g('doctor', fixer.doctor.bind(fixer)) } : {}),
  };
}

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

export function wrapReporter(reporter: Reporter, origin: PluginOrigin | undefined, logger: Logger): Reporter {
  const wrapped: Reporter = identity(reporter);
  for (const key of REPORTER_HOOKS) {
    const fn = reporter[key] as ((...a: unknown[]) => unknown) | undefined;
    if (fn)
      (wrapped as unknown as Record<string, unknown>)[key] = guard(
        reporter.name,
        origin,
        key,
        logger,
        fn.bind(reporter),
      );
  }
  return wrapped;
}

export function wrapGenerator(
  generator: GeneratorPlugin,
  origin: PluginOrigin | undefined,
  logger: Logger,
): GeneratorPlugin {
  const g = <A extends unknown[], R>(m: string, fn: (...a: A) => Promise<R> | R) =>
    guard(generator.name, origin, m, logger, fn);
  return {
    ...identity(generator),
    language: generator.language,
    generate: g('generate', generator.generate.bind(generator)),
    ...(generator.doctor ? { doctor: g('doctor', generator.doctor.bind(generator)) } : {}),
  };
}
