import { z } from 'zod';
import type { ReplayedUsage, Usage } from '../api/contracts/fix.js';

/** Price of a model in US dollars per million tokens. */
export const ModelPriceSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    /** Cached input read; defaults to `input`. */
    cacheRead: z.number().nonnegative().optional(),
    /** Input written to the cache; defaults to `input`. */
    cacheWrite: z.number().nonnegative().optional(),
  })
  .strict();
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** Model name (or name prefix, such as `gpt-4o` for `gpt-4o-2024-08-06`) to price. */
export const PriceTableSchema = z.record(z.string(), ModelPriceSchema);
export type PriceTable = z.infer<typeof PriceTableSchema>;

/** The price of `model`: an exact entry, else the longest entry the model name starts with. */
export function findPrice(table: PriceTable, model: string): ModelPrice | undefined {
  if (table[model]) return table[model];
  const prefix = Object.keys(table)
    .filter((k) => model.startsWith(k))
    .sort((a, b) => b.length - a.length)[0];
  return prefix ? table[prefix] : undefined;
}

type Tokens = Pick<Usage, 'inputTokens' | 'outputTokens' | 'cacheReadTokens' | 'cacheWriteTokens'>;

/** Cost in US dollars of the tokens at that price (0 when the price is unknown). */
export function costOf(price: ModelPrice | undefined, tokens: Tokens): number {
  if (!price) return 0;
  const usd =
    (tokens.inputTokens * price.input +
      tokens.outputTokens * price.output +
      tokens.cacheReadTokens * (price.cacheRead ?? price.input) +
      tokens.cacheWriteTokens * (price.cacheWrite ?? price.input)) /
    1_000_000;
  return Math.round(usd * 1e8) / 1e8;
}

/** Adds two usages (several calls for one attempt: retries, a resumed session). */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    ...((b.model ?? a.model) ? { model: b.model ?? a.model } : {}),
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e8) / 1e8,
    calls: a.calls + b.calls,
    ...(a.durationMs !== undefined || b.durationMs !== undefined
      ? { durationMs: (a.durationMs ?? 0) + (b.durationMs ?? 0) }
      : {}),
    ...(a.replayed || b.replayed ? { replayed: addReplayed(a.replayed, b.replayed) } : {}),
  };
}

function addReplayed(a: ReplayedUsage | undefined, b: ReplayedUsage | undefined): ReplayedUsage {
  if (!a || !b) return (a ?? b)!;
  return {
    answers: a.answers + b.answers,
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadTokens: a.cacheReadTokens + b.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    costUsd: Math.round((a.costUsd + b.costUsd) * 1e8) / 1e8,
  };
}

export function emptyUsage(model?: string): Usage {
  return {
    ...(model ? { model } : {}),
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0,
    calls: 0,
  };
}
