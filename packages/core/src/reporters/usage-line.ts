import type { Totals } from '../api/contracts/report.js';

/** LLM usage in a line (callers prefix `LLM: `): calls, tokens (cache traffic only when there was some) and cost. */
export function usageLine(t: Totals): string {
  const parts = [`${t.llmCalls} call(s)`, `${t.inputTokens} in / ${t.outputTokens} out tokens`];
  if (t.cacheReadTokens > 0) parts.push(`${t.cacheReadTokens} read from cache`);
  if (t.cacheWriteTokens > 0) parts.push(`${t.cacheWriteTokens} written to cache`);
  parts.push(`$${t.costUsd.toFixed(4)}`);
  // a replay costs nothing now: said apart, so a cassette run is not read as free model calls
  if (t.replayedAnswers > 0) parts.push(`${t.replayedAnswers} answer(s) replayed from a cassette`);
  return parts.join(', ');
}
