import type { PriceTable } from '@suture/core/llm';

const HAIKU_3_5 = { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 };
const HAIKU_4_5 = { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 };
const SONNET = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
const OPUS_4_0 = { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 };
const OPUS_4_5 = { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 };
const TIER_5 = { input: 10, output: 50, cacheRead: 1, cacheWrite: 12.5 };

/**
 * US dollars per million tokens, the figures Claude Code 2.1.197 prices its own calls with (cache
 * writes at the 5-minute rate). Keys are model names or prefixes (`findPrice` takes the longest
 * prefix), so dated names such as `claude-haiku-4-5-20251001` match. Used in api mode; in cli
 * mode claude reports the cost itself. A model missing here costs 0 until the `prices` option
 * names it.
 */
export const CLAUDE_PRICES: PriceTable = {
  'claude-3-5-haiku': HAIKU_3_5,
  'claude-haiku-4-5': HAIKU_4_5,
  'claude-3-5-sonnet': SONNET,
  'claude-3-7-sonnet': SONNET,
  'claude-sonnet-4': SONNET,
  'claude-sonnet-5': SONNET,
  'claude-opus-4-0': OPUS_4_0,
  'claude-opus-4-1': OPUS_4_0,
  'claude-opus-4-2025': OPUS_4_0,
  'claude-opus-4-5': OPUS_4_5,
  'claude-opus-4-6': OPUS_4_5,
  'claude-opus-4-7': OPUS_4_5,
  'claude-opus-4-8': OPUS_4_5,
  'claude-fable-5': TIER_5,
  'claude-mythos-5': TIER_5,
};
