import {
  ANSWER_TOOL_NAME,
  FIXER_SYSTEM_PROMPT,
  llmAnswerJsonSchema,
  type RenderedPrompt,
} from '@suture/core/llm';
import { describe, expect, it } from 'vitest';
import { chatRequest, responsesRequest } from './request.js';

const prompt: RenderedPrompt = {
  kind: 'logic',
  system: FIXER_SYSTEM_PROMPT,
  user: 'A javascript test fails: ...',
};
const openAI = { model: 'gpt-5-mini', openAIHost: true, temperature: undefined, maxOutputTokens: 4096 };
const ollama = { model: 'qwen2.5-coder', openAIHost: false, temperature: 0.1, maxOutputTokens: 2048 };

describe('chatRequest', () => {
  it('forces one strict propose_fix call whose parameters are the answer schema', () => {
    const r = chatRequest(prompt, openAI);
    expect(r.tools).toEqual([
      {
        type: 'function',
        function: {
          name: ANSWER_TOOL_NAME,
          description: expect.stringContaining('exactly once'),
          parameters: llmAnswerJsonSchema(),
          strict: true,
        },
      },
    ]);
    expect(r.tool_choice).toEqual({ type: 'function', function: { name: 'propose_fix' } });
  });

  it('sends the rendered system prompt, then the rendered user prompt', () => {
    const r = chatRequest(prompt, openAI);
    expect(r.messages).toEqual([
      { role: 'system', content: FIXER_SYSTEM_PROMPT },
      { role: 'user', content: 'A javascript test fails: ...' },
    ]);
  });

  it('limits output with max_completion_tokens on OpenAI and max_tokens elsewhere', () => {
    const a = chatRequest(prompt, openAI);
    expect(a.max_completion_tokens).toBe(4096);
    expect(a).not.toHaveProperty('max_tokens');
    const b = chatRequest(prompt, ollama);
    expect(b.max_tokens).toBe(2048);
    expect(b).not.toHaveProperty('max_completion_tokens');
  });

  it('sends a temperature only when one is configured', () => {
    expect(chatRequest(prompt, openAI)).not.toHaveProperty('temperature');
    expect(chatRequest(prompt, ollama).temperature).toBe(0.1);
  });
});

describe('responsesRequest', () => {
  it('forces the same strict function, keeps nothing stored, and limits the output', () => {
    const r = responsesRequest(prompt, openAI);
    expect(r).toEqual({
      model: 'gpt-5-mini',
      instructions: expect.stringContaining(FIXER_SYSTEM_PROMPT),
      input: [{ role: 'user', content: 'A javascript test fails: ...' }],
      tools: [
        {
          type: 'function',
          name: 'propose_fix',
          description: expect.any(String),
          parameters: llmAnswerJsonSchema(),
          strict: true,
        },
      ],
      tool_choice: { type: 'function', name: 'propose_fix' },
      max_output_tokens: 4096,
      store: false,
    });
    expect(responsesRequest(prompt, ollama).temperature).toBe(0.1);
  });
});
