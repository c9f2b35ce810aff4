import { FixerError } from '@suture/core';
import { sampleFixerContext } from '@suture/core/testing';
import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { fixRequest } from './test-support/fix-request.js';
import { resolveOptions } from './options.js';
import { propose, type ProposeDeps } from './propose.js';

const ANSWER = JSON.stringify({
  verdict: 'unfixable',
  rationale: 'r',
  edits: [],
  bug: null,
  diagnosis: 'needs a new dependency',
});

/** OpenAI itself, answered in-process: the cost rules for api.openai.com without the network. */
function onOpenAI(
  model: string,
  served: string,
  usage: OpenAI.CompletionUsage,
  prices?: Record<string, { input: number; output: number }>,
): { deps: ProposeDeps; unpriced: string[] } {
  const unpriced: string[] = [];
  const completion = {
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: served,
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: {
          role: 'assistant',
          content: null,
          refusal: null,
          tool_calls: [{ id: '1', type: 'function', function: { name: 'propose_fix', arguments: ANSWER } }],
        },
      },
    ],
    usage,
  };
  const client = { chat: { completions: { create: async () => completion } } } as unknown as OpenAI;
  return {
    unpriced,
    deps: {
      options: resolveOptions(
        { model, ...(prices ? { prices } : {}) },
        { configDir: process.cwd(), env: { OPENAI_API_KEY: 'sk-test' } },
      ),
      client: () => client,
      redact: (s) => s,
      onUnpricedModel: (m) => void unpriced.push(m),
    },
  };
}

describe('usage and cost on OpenAI', () => {
  it('prices a dated model by its family from the default table, cached input at the cached rate', async () => {
    const { deps, unpriced } = onOpenAI('gpt-5-mini', 'gpt-5-mini-2025-08-07', {
      prompt_tokens: 10_000,
      completion_tokens: 2_000,
      total_tokens: 12_000,
      prompt_tokens_details: { cached_tokens: 4_000 },
    });
    const proposal = await propose(fixRequest(), sampleFixerContext(), deps);
    // 6000 × 0.25 + 4000 × 0.025 + 2000 × 2, per million
    expect(proposal.usage).toMatchObject({
      model: 'gpt-5-mini-2025-08-07',
      inputTokens: 6000,
      cacheReadTokens: 4000,
      outputTokens: 2000,
      costUsd: 0.0056,
      calls: 1,
    });
    expect(unpriced).toEqual([]);
  });

  it('prices the configured name before the name the server reports', async () => {
    const { deps } = onOpenAI(
      'team-alias',
      'gpt-4o-2024-08-06',
      { prompt_tokens: 1_000_000, completion_tokens: 1_000_000, total_tokens: 2_000_000 },
      { 'team-alias': { input: 1, output: 3 } },
    );
    expect((await propose(fixRequest(), sampleFixerContext(), deps)).usage).toMatchObject({
      model: 'gpt-4o-2024-08-06',
      costUsd: 4,
    });
  });

  it('counts 0 for a model with no price and says so', async () => {
    const { deps, unpriced } = onOpenAI('gpt-9-preview', 'gpt-9-preview', {
      prompt_tokens: 100,
      completion_tokens: 10,
      total_tokens: 110,
    });
    const proposal = await propose(fixRequest(), sampleFixerContext(), deps);
    expect(proposal).toMatchObject({
      verdict: 'unfixable',
      diagnosis: 'needs a new dependency',
      usage: { costUsd: 0, inputTokens: 100 },
    });
    expect(unpriced).toEqual(['gpt-9-preview']);
  });

  it('keeps the cost of a call whose answer is unusable', async () => {
    const { deps } = onOpenAI('gpt-4.1', 'gpt-4.1', {
      prompt_tokens: 1_000_000,
      completion_tokens: 0,
      total_tokens: 1_000_000,
    });
    const create = deps.client().chat.completions
      .create as unknown as () => Promise<OpenAI.Chat.ChatCompletion>;
    const broken = await create();
    broken.choices[0]!.message.tool_calls = [];
    broken.choices[0]!.message.content = 'no';
    const error = await propose(fixRequest(), sampleFixerContext(), {
      ...deps,
      client: () => ({ chat: { completions: { create: async () => broken } } }) as unknown as OpenAI,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FixerError);
    expect((error as FixerError).usage).toMatchObject({ inputTokens: 1_000_000, costUsd: 2 });
  });
});
