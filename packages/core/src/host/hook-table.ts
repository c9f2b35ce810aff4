import { errorMessage, formatOrigin, PluginError, type PluginOrigin } from '../api/errors.js';
import type { Logger, PluginBase } from '../api/plugin.js';
import { asPlugin, type PluginFrame } from '../safety/process/plugin-exits.js';

/** What every hook wrapper of one plugin knows: who it is, where the config names it, where to say things. */
export interface WrapContext {
  name: string;
  origin: PluginOrigin | undefined;
  logger: Logger;
}

type Fn = (...args: never[]) => unknown;
type MethodOf<T> = Extract<NonNullable<T>, Fn>;

/**
 * How the wrapper carries one key of a plugin interface:
 * - `field`: data (`language`, `kinds`), copied as it is;
 * - `call`: an asynchronous hook, timed, run as the plugin's code, a throw made a PluginError
 *   that names the plugin and its config entry;
 * - `sync`: a synchronous question the engine asks while it validates (`isTestFile`,
 *   `testModel`), where a throw means "cannot tell": `fallback` is answered and a warning said;
 * - `custom`: a hook with more to guarantee (a runner's time limit, a nested analyzer).
 */
export type HookRule<T> =
  | { readonly kind: 'field' }
  | { readonly kind: 'call' }
  | { readonly kind: 'sync'; readonly fallback: ReturnType<MethodOf<T>> }
  | { readonly kind: 'custom'; readonly wrap: (hook: NonNullable<T>, w: WrapContext) => NonNullable<T> };

/**
 * One rule for every key of a plugin interface but its identity. Each key is required (`-?`), so
 * a hook added to an interface in api/plugin.ts and not to its table fails the typecheck: no hook
 * of a contract can be dropped on the way (pluggy verifies each hook against its spec the same way).
 */
export type HookTable<P extends PluginBase> = {
  readonly [K in Exclude<keyof P, keyof PluginBase>]-?: HookRule<P[K]>;
};

function frameOf(w: WrapContext, hook: string): PluginFrame {
  return { plugin: `${w.name}${w.origin ? ` (${formatOrigin(w.origin)})` : ''}`, hook };
}

/**
 * An asynchronous hook as core calls it: timed, run as the plugin's code (so an exit it asks for
 * is known to be its own), a throw made a PluginError naming the plugin and its config entry.
 */
export function guardCall<A extends unknown[], R>(
  w: WrapContext,
  hook: string,
  fn: (...args: A) => Promise<R> | R,
): (...args: A) => Promise<R> {
  return async (...args: A): Promise<R> => {
    const started = Date.now();
    try {
      return await asPlugin(frameOf(w, hook), () => fn(...args));
    } catch (error) {
      // a PluginExitError already names the plugin, and the gate reads it as an exit
      if (error instanceof PluginError || (error as Error | undefined)?.name === 'PluginExitError')
        throw error;
      throw new PluginError(w.name, w.origin, errorMessage(error), { cause: error });
    } finally {
      w.logger.debug(`${w.name}.${hook} took ${Date.now() - started} ms`);
    }
  };
}

/** A synchronous hook: a throw means "cannot tell", never a crash of the gate, but it is said. */
function guardSync<A extends unknown[], R>(
  w: WrapContext,
  hook: string,
  fn: (...args: A) => R,
  fallback: R,
): (...args: A) => R {
  return (...args: A): R => {
    try {
      return asPlugin(frameOf(w, hook), () => fn(...args));
    } catch (error) {
      const which = new PluginError(w.name, w.origin, errorMessage(error)).message;
      const subject = typeof args[0] === 'string' ? args[0] : '';
      w.logger.warn(`${which} (in ${hook}(${subject}); taken as "cannot tell")`);
      return fallback;
    }
  };
}

/**
 * The wrapper of `plugin`: its identity, then every key of `table` the plugin has, carried by its
 * rule, each method bound to the plugin (Vite calls hooks on the plugin object itself).
 */
export function wrapWith<P extends PluginBase>(plugin: P, table: HookTable<P>, w: WrapContext): P {
  const wrapped: Record<string, unknown> = {
    name: plugin.name,
    apiVersion: plugin.apiVersion,
    ...(plugin.apiRange ? { apiRange: plugin.apiRange } : {}),
  };
  const source = plugin as unknown as Record<string, unknown>;
  for (const [key, rule] of Object.entries(table) as Array<[string, HookRule<unknown>]>) {
    const value = source[key];
    if (value === undefined) continue;
    if (rule.kind === 'field') {
      wrapped[key] = value;
      continue;
    }
    if (typeof value !== 'function') continue;
    const bound = (value as (...a: unknown[]) => unknown).bind(plugin);
    if (rule.kind === 'call') wrapped[key] = guardCall(w, key, bound);
    else if (rule.kind === 'sync') wrapped[key] = guardSync(w, key, bound, rule.fallback);
    else wrapped[key] = (rule.wrap as (hook: unknown, w: WrapContext) => unknown)(bound, w);
  }
  return wrapped as unknown as P;
}
