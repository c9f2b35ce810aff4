import { CallTimeoutError, callDeadline, missingAnswerReason, type LlmTransport } from '@suture/core/llm';
import OpenAI from 'openai';
import { createClient } from './client.js';
import { describeFailure, describeTimeout } from './errors.js';
import { DEFAULT_KEY_ENV, type ResolvedOptions } from './options.js';
import { readChatCompletion, readResponse, type ModelReply } from './reply.js';
import { ANSWER_INSTRUCTIONS, chatRequest, responsesRequest } from './request.js';

/**
 * One strict, forced `propose_fix` call per attempt, on Chat Completions or the Responses API.
 * Each attempt carries its own history, so there is no conversation to keep. The SDK retries
 * transient errors; what it throws at last becomes a reason that says what to do.
 */
export function openAITransport(o: ResolvedOptions): LlmTransport {
  const path = o.api === 'chat' ? '/chat/completions' : '/responses';
  let client: OpenAI | undefined;
  return {
    answer: ANSWER_INSTRUCTIONS,
    async send({ prompt, meter }, ctx) {
      if (!o.apiKey) {
        throw new Error(
          `no API key for ${o.baseURL}: set ${o.apiKeyEnv}${o.apiKeyEnv === DEFAULT_KEY_ENV ? '' : ' (option "apiKeyEnv")'}, or point "baseURL" at a local server that needs none`,
        );
      }
      client ??= createClient({ ...o, apiKey: o.apiKey.value });
      const started = Date.now();
      // timeoutMs bounds the whole call, the SDK's retries and their back-off included
      const deadline = callDeadline(ctx.signal, o.timeoutMs);
      const signal = deadline.signal;
      let reply: ModelReply;
      try {
        reply =
          o.api === 'chat'
            ? readChatCompletion(
                await deadline.race(client.chat.completions.create(chatRequest(prompt, o), { signal })),
              )
            : readResponse(
                await deadline.race(client.responses.create(responsesRequest(prompt, o), { signal })),
              );
      } catch (error) {
        if (deadline.expired() || error instanceof OpenAI.APIConnectionTimeoutError)
          throw new CallTimeoutError(describeTimeout({ ...o, path }), { cause: error });
        const cause = ctx.signal.aborted ? new OpenAI.APIUserAbortError() : error;
        throw new Error(describeFailure(cause, { ...o, path }), { cause: error });
      }
      const model = reply.model ?? o.model;
      const usage = meter({
        model,
        configuredModel: o.model,
        inputTokens: reply.tokens.input,
        outputTokens: reply.tokens.output,
        cacheReadTokens: reply.tokens.cacheRead,
        cacheWriteTokens: reply.tokens.cacheWrite,
        durationMs: Date.now() - started,
      });
      // Arguments cut off at the token limit are broken JSON: say so rather than "not JSON".
      if (reply.arguments !== undefined && reply.cutOff !== 'length')
        return { usage, answer: reply.arguments };
      const failure = missingAnswerReason({
        ...reply,
        model,
        expected: 'propose_fix',
        maxOutputTokens: o.maxOutputTokens,
        plainTextHint: `does it support tool calling${o.openAIHost ? '' : ` on ${o.baseURL}`}? try a model that does`,
        endpoint: o.baseURL,
      });
      return { usage, failure };
    },
  };
}
