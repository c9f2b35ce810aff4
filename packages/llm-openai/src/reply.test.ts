import type OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { readChatCompletion, readResponse } from './reply.js';

const ARGS = '{"verdict":"unfixable","rationale":"r","edits":[],"bug":null,"diagnosis":"d"}';

function completion(
  message: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): OpenAI.Chat.ChatCompletion {
  return {
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-5-mini-2025-08-07',
    choices: [
      {
        index: 0,
        finish_reason: 'tool_calls',
        logprobs: null,
        message: { role: 'assistant', content: null, refusal: null, ...message },
      },
    ],
    usage: {
      prompt_tokens: 1000,
      completion_tokens: 200,
      total_tokens: 1200,
      prompt_tokens_details: { cached_tokens: 600 },
    },
    ...extra,
  } as OpenAI.Chat.ChatCompletion;
}

function response(output: unknown[], extra: Record<string, unknown> = {}): OpenAI.Responses.Response {
  return {
    id: 'r',
    object: 'response',
    model: 'gpt-5-mini',
    status: 'completed',
    output,
    usage: {
      input_tokens: 900,
      input_tokens_details: { cached_tokens: 100, cache_write_tokens: 50 },
      output_tokens: 80,
      output_tokens_details: { reasoning_tokens: 20 },
      total_tokens: 980,
    },
    ...extra,
  } as unknown as OpenAI.Responses.Response;
}

describe('readChatCompletion', () => {
  it('takes the propose_fix arguments, the served model, and input without the cached part', () => {
    const r = readChatCompletion(
      completion({
        tool_calls: [{ id: '1', type: 'function', function: { name: 'propose_fix', arguments: ARGS } }],
      }),
    );
    expect(r).toEqual({
      model: 'gpt-5-mini-2025-08-07',
      arguments: ARGS,
      otherCalls: [],
      text: '',
      refusal: undefined,
      cutOff: undefined,
      tokens: { input: 400, output: 200, cacheRead: 600, cacheWrite: 0 },
    });
  });

  it('accepts a tool call without "type", as some compatible servers send it, and counts zero tokens without usage', () => {
    const r = readChatCompletion(
      completion(
        { tool_calls: [{ id: '1', function: { name: 'propose_fix', arguments: ARGS } }] },
        { usage: undefined },
      ),
    );
    expect(r.arguments).toBe(ARGS);
    expect(r.tokens).toEqual({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });
  });

  it('reports plain text, a refusal, another function and a cut-off reply', () => {
    expect(readChatCompletion(completion({ content: 'Change > to >=.' }))).toMatchObject({
      arguments: undefined,
      text: 'Change > to >=.',
    });
    expect(readChatCompletion(completion({ refusal: 'I cannot help' }))).toMatchObject({
      arguments: undefined,
      refusal: 'I cannot help',
    });
    expect(
      readChatCompletion(
        completion({
          tool_calls: [{ id: '1', type: 'function', function: { name: 'read_file', arguments: '{}' } }],
        }),
      ),
    ).toMatchObject({ arguments: undefined, otherCalls: ['read_file'] });
    const cut = completion({
      tool_calls: [{ id: '1', type: 'function', function: { name: 'propose_fix', arguments: '{"verd' } }],
    });
    cut.choices[0]!.finish_reason = 'length';
    expect(readChatCompletion(cut)).toMatchObject({ arguments: '{"verd', cutOff: 'length' });
  });

  it('survives a reply with no choices', () => {
    expect(readChatCompletion(completion({}, { choices: [] }))).toMatchObject({
      arguments: undefined,
      text: '',
    });
  });
});

describe('readResponse', () => {
  it('takes the function_call item and splits cached and cache-written input off', () => {
    const r = readResponse(
      response([
        { type: 'reasoning', id: 'rs', summary: [] },
        { type: 'function_call', id: 'fc', call_id: 'c1', name: 'propose_fix', arguments: ARGS },
      ]),
    );
    expect(r).toEqual({
      model: 'gpt-5-mini',
      arguments: ARGS,
      otherCalls: [],
      text: '',
      refusal: undefined,
      cutOff: undefined,
      tokens: { input: 750, output: 80, cacheRead: 100, cacheWrite: 50 },
    });
  });

  it('reads text and refusal parts of a message, and an incomplete response', () => {
    const msg = (content: unknown[]) => ({
      type: 'message',
      id: 'm',
      role: 'assistant',
      status: 'completed',
      content,
    });
    expect(
      readResponse(response([msg([{ type: 'output_text', text: 'plain', annotations: [] }])])),
    ).toMatchObject({ arguments: undefined, text: 'plain' });
    expect(readResponse(response([msg([{ type: 'refusal', refusal: 'no' }])]))).toMatchObject({
      refusal: 'no',
    });
    expect(
      readResponse(
        response([], { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } }),
      ).cutOff,
    ).toBe('length');
    expect(
      readResponse(response([], { status: 'incomplete', incomplete_details: { reason: 'content_filter' } }))
        .cutOff,
    ).toBe('content-filter');
  });
});
