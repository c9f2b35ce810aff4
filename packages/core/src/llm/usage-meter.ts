import type { Usage } from '../api/contracts/fix.js';
import type { Logger } from '../api/plugin.js';
import { costOf, findPrice, type PriceTable } from './pricing.js';

/** One call to a model, as its API counted it. */
export interface MeteredCall {
  /** The model that answered, as the server names it. */
  model: string;
  /** The name the user configured: priced first, since a server may answer with a dated or aliased name. */
  configuredModel?: string | undefined;
  /** Input neither read from nor written to the cache. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  durationMs: number;
}

/** Usage of one call, priced from the fixer's table. */
export type UsageMeter = (call: MeteredCall, logger: Logger) => Usage;

/**
 * A meter for one fixer. A model missing from the table costs 0, and the user is told once per
 * model, so the 0 is not taken for a real figure; `warnUnpriced: false` is for a server the user
 * runs, which costs nothing unless given prices.
 */
export function createUsageMeter(fixer: string, prices: PriceTable, warnUnpriced = true): UsageMeter {
  const warned = new Set<string>();
  return (call, logger) => {
    const { model, configuredModel, durationMs, ...tokens } = call;
    const price =
      (configuredModel ? findPrice(prices, configuredModel) : undefined) ?? findPrice(prices, model);
    if (!price && warnUnpriced && !warned.has(model)) {
      warned.add(model);
      logger.warn(
        `${fixer}: no price for the model "${model}"; its cost counts as 0 until the fixer option "prices" names it`,
      );
    }
    return { model, ...tokens, costUsd: costOf(price, tokens), calls: 1, durationMs };
  };
}
