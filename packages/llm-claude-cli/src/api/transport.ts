import Anthropic from '@anthropic-ai/sdk';
import {
  ANSWER_TOOL_DESCRIPTION,
  ANSWER_TOOL_NAME,
  CallTimeoutError,
  bufferedFetch,
  callDeadline,
  callFailureReason,
  clip,
  keyFix,
  llmAnswerJsonSchema,
  missingAnswerReason,
  sdkCallFailure,
  type CallSite,
  type LlmTransport,
} from '@suture/core/llm';
import { DEFAULT_API_MODEL, DEFAULT_KEY_ENV, TOKEN_SOURCE, type ResolvedOptions } from '../options.js';
import { API_ANSWER } from '../prompt.js';

/** The message history of a failure group, and the answer call the next user turn must answer. */
export interface ApiConversation {
  messages: Anthropic.MessageParam[];
  toolUseId: string;
}

function isAnthropic(url: string): boolean {
  try {
    return new URL(url).hostname === 'api.anthropic.com';
  } catch {
    return false;
  }
}

function textOf(message: Anthropic.Message): string {
  return clip(
    message.content
      .filter((b): b is Anthropic.TextBlock => b.type === 'text')
      .map((b) => b.text)
      .join(' '),
  );
}

/**
 * The messages with one cache mark. While a later attempt may continue the conversation, the mark
 * is on the newest turn, so that attempt reads this whole prompt from the cache. On the last
 * attempt it is on the end of the history instead: the call still reads what earlier calls wrote,
 * and does not pay a cache write (a quarter more than input) for a turn no call will read.
 */
function withCacheMark(
  messages: readonly Anthropic.MessageParam[],
  lastAttempt: boolean,
): Anthropic.MessageParam[] {
  const at = messages.length - (lastAttempt ? 2 : 1);
  const target = messages[at];
  if (!target || typeof target.content === 'string') return [...messages];
  const blocks = target.content.map((b, i) =>
    i === target.content.length - 1 ? { ...b, cache_control: { type: 'ephemeral' as const } } : b,
  );
  return messages.map((m, i) => (i === at ? ({ ...target, content: blocks } as Anthropic.MessageParam) : m));
}

/**
 * The Messages API transport. The answer is forced through the answer tool
 * (`tool_choice: {type: 'tool'}`), and attempts on one failure group continue one message
 * history: the next turn answers the previous tool call with what suture did with it.
 */
export function apiTransport(options: ResolvedOptions): LlmTransport<ApiConversation> {
  const model = options.model ?? DEFAULT_API_MODEL;
  const baseURL = options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  const key = options.apiKey;
  const site: CallSite = {
    endpoint: baseURL,
    path: '/v1/messages',
    model,
    retries: options.retries,
    timeoutMs: options.timeoutMs,
    key,
    keyFix: keyFix(key, options.apiKeyEnv, DEFAULT_KEY_ENV),
    selfHosted: !isAnthropic(baseURL),
  };
  // strict: the API itself holds the answer to the schema, so a broken answer is not paid for twice
  const tool: Anthropic.Tool = {
    name: ANSWER_TOOL_NAME,
    description: ANSWER_TOOL_DESCRIPTION,
    input_schema: llmAnswerJsonSchema() as Anthropic.Tool.InputSchema,
    strict: true,
  };
  let client: Anthropic | undefined;

  return {
    answer: API_ANSWER,
    async send({ request, prompt, continues, fate, meter }, ctx) {
      if (!key) {
        throw new Error(
          `no Anthropic API key: set ${options.apiKeyEnv} (or ANTHROPIC_AUTH_TOKEN), or use mode "cli" with a logged-in claude`,
        );
      }
      client ??= new Anthropic({
        ...(key.source === TOKEN_SOURCE ? { authToken: key.value } : { apiKey: key.value }),
        baseURL,
        timeout: options.timeoutMs,
        maxRetries: options.retries,
        // The SDK's timeout ends at the response headers; this keeps a stalled body under it.
        fetch: bufferedFetch,
      });
      // The answer call of the last turn is answered with what really became of it.
      const turn: Anthropic.MessageParam = continues
        ? {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: continues.toolUseId,
                content: fate?.text ?? 'suture has a new prompt for you; it follows.',
                ...(fate && !fate.applied ? { is_error: true } : {}),
              },
              { type: 'text', text: prompt.user },
            ],
          }
        : { role: 'user', content: [{ type: 'text', text: prompt.user }] };
      const messages = [...(continues?.messages ?? []), turn];
      const started = Date.now();
      // timeoutMs bounds the whole call, the SDK's retries and their back-off included
      const deadline = callDeadline(ctx.signal, options.timeoutMs);
      let message: Anthropic.Message;
      try {
        message = await deadline.race(
          client.messages.create(
            {
              model,
              max_tokens: options.maxOutputTokens,
              // The system prompt and the tool are the same for every failure of the run (cached
              // once they pass Anthropic's minimum length), and a conversation only grows.
              system: [{ type: 'text', text: prompt.system, cache_control: { type: 'ephemeral' } }],
              messages: withCacheMark(messages, request.attempt >= request.maxAttempts),
              tools: [tool],
              tool_choice: { type: 'tool', name: ANSWER_TOOL_NAME },
            },
            { signal: deadline.signal },
          ),
        );
      } catch (error) {
        const failure = deadline.expired()
          ? { kind: 'timeout' as const, detail: '' }
          : ctx.signal.aborted
            ? { kind: 'cancelled' as const, detail: '' }
            : sdkCallFailure(error, Anthropic);
        if (failure.kind !== 'timeout') throw new Error(callFailureReason(failure, site), { cause: error });
        // the limit is the call's, retries included: how many fitted in it says nothing
        throw new CallTimeoutError(callFailureReason(failure, { ...site, retries: 0 }), { cause: error });
      }
      const u = message.usage;
      const usage = meter({
        model: message.model,
        configuredModel: model,
        inputTokens: u.input_tokens ?? 0,
        outputTokens: u.output_tokens ?? 0,
        cacheReadTokens: u.cache_read_input_tokens ?? 0,
        cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
        durationMs: Date.now() - started,
      });
      const call = message.content.find(
        (b): b is Anthropic.ToolUseBlock => b.type === 'tool_use' && b.name === ANSWER_TOOL_NAME,
      );
      const cutOff = message.stop_reason === 'max_tokens';
      const conversation =
        call && !cutOff
          ? {
              messages: [...messages, { role: 'assistant' as const, content: message.content }],
              toolUseId: call.id,
            }
          : null;
      const refused = message.stop_reason === 'refusal';
      if (call && !cutOff && !refused) return { usage, conversation, answer: call.input };
      const failure = missingAnswerReason({
        model: message.model,
        expected: ANSWER_TOOL_NAME,
        cutOff: cutOff ? 'length' : undefined,
        maxOutputTokens: options.maxOutputTokens,
        refusal: refused ? textOf(message) : undefined,
        text: textOf(message),
      });
      return { usage, conversation, failure };
    },
  };
}
