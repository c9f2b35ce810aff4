import { describe, expect, it } from 'vitest';
import { silentLogger } from '../testing/conformance-utils.js';
import type { Logger } from '../api/plugin.js';
import { createUsageMeter, type MeteredCall } from './usage-meter.js';

const PRICES = {
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025 },
  'team-alias': { input: 1, output: 3 },
};
const call = (over: Partial<MeteredCall>): MeteredCall => ({
  model: 'gpt-5-mini',
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  durationMs: 12,
  ...over,
});
function recording(): { logger: Logger; warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, logger: { ...silentLogger, warn: (m: string) => void warnings.push(m) } };
}

describe('createUsageMeter', () => {
  it('prices a dated name by its longest prefix, cached input at the cached rate', () => {
    const meter = createUsageMeter('@suture/llm-x', PRICES);
    const usage = meter(
      call({ model: 'gpt-5-mini-2025-08-07', inputTokens: 6000, cacheReadTokens: 4000, outputTokens: 2000 }),
      silentLogger,
    );
    // 6000 × 0.25 + 4000 × 0.025 + 2000 × 2, per million
    expect(usage).toEqual({
      model: 'gpt-5-mini-2025-08-07',
      inputTokens: 6000,
      outputTokens: 2000,
      cacheReadTokens: 4000,
      cacheWriteTokens: 0,
      costUsd: 0.0056,
      calls: 1,
      durationMs: 12,
    });
  });

  it('prices the configured name before the name the server answers with', () => {
    const meter = createUsageMeter('@suture/llm-x', PRICES);
    const usage = meter(
      call({
        model: 'gpt-4o-2024-08-06',
        configuredModel: 'team-alias',
        inputTokens: 1e6,
        outputTokens: 1e6,
      }),
      silentLogger,
    );
    expect(usage).toMatchObject({ model: 'gpt-4o-2024-08-06', costUsd: 4 });
  });

  it('counts 0 for a model without a price and says so once per model', () => {
    const { logger, warnings } = recording();
    const meter = createUsageMeter('@suture/llm-x', PRICES);
    expect(meter(call({ model: 'gpt-9', inputTokens: 100 }), logger).costUsd).toBe(0);
    meter(call({ model: 'gpt-9' }), logger);
    meter(call({ model: 'gpt-10' }), logger);
    expect(warnings).toEqual([
      '@suture/llm-x: no price for the model "gpt-9"; its cost counts as 0 until the fixer option "prices" names it',
      '@suture/llm-x: no price for the model "gpt-10"; its cost counts as 0 until the fixer option "prices" names it',
    ]);
  });

  it('stays quiet for a server the user runs', () => {
    const { logger, warnings } = recording();
    createUsageMeter('@suture/llm-x', {}, false)(call({ model: 'qwen2.5-coder' }), logger);
    expect(warnings).toEqual([]);
  });
});
