import { ANSWER_TOOL_NAME } from '@suture/core/llm';
import type OpenAI from 'openai';

export interface ReplyTokens {
  /** Input not read from or written to the cache (OpenAI counts those inside the prompt total). */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** What a reply holds, whichever API it came from. */
export interface ModelReply {
  /** The model that answered, as the server names it. */
  model: string | undefined;
  /** The arguments of the `propose_fix` call: a JSON string, or undefined when there was no call. */
  arguments: string | undefined;
  /** Functions the model called other than `propose_fix`. */
  otherCalls: string[];
  /** Plain text the model wrote. */
  text: string;
  /** The model refused (strict mode reports a refusal instead of arguments). */
  refusal: string | undefined;
  /** Why the reply stopped early: the output token limit, or a content filter. */
  cutOff: 'length' | 'content-filter' | undefined;
  tokens: ReplyTokens;
}

function tokens(
  prompt: number | undefined,
  output: number | undefined,
  cacheRead: number | undefined,
  cacheWrite: number | undefined,
): ReplyTokens {
  const read = cacheRead ?? 0;
  const write = cacheWrite ?? 0;
  return {
    input: Math.max(0, (prompt ?? 0) - read - write),
    output: output ?? 0,
    cacheRead: read,
    cacheWrite: write,
  };
}

/** Reads a Chat Completions reply; tolerant of compatible servers that leave fields out. */
export function readChatCompletion(completion: OpenAI.Chat.ChatCompletion): ModelReply {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  // Some compatible servers leave out `type`; a call with a `function` is a function call.
  const calls = (message?.tool_calls ?? []).flatMap((c) =>
    'function' in c && c.function ? [c.function] : [],
  );
  const answer = calls.find((f) => f.name === ANSWER_TOOL_NAME);
  const u = completion.usage;
  const finish = choice?.finish_reason;
  return {
    model: completion.model || undefined,
    arguments: answer?.arguments,
    otherCalls: calls.filter((f) => f.name !== ANSWER_TOOL_NAME).map((f) => f.name),
    text: typeof message?.content === 'string' ? message.content : '',
    refusal: message?.refusal || undefined,
    cutOff: finish === 'length' ? 'length' : finish === 'content_filter' ? 'content-filter' : undefined,
    tokens: tokens(
      u?.prompt_tokens,
      u?.completion_tokens,
      u?.prompt_tokens_details?.cached_tokens,
      u?.prompt_tokens_details?.cache_write_tokens,
    ),
  };
}

/** Reads a Responses API reply: the function call is an output item, text and refusals are message parts. */
export function readResponse(response: OpenAI.Responses.Response): ModelReply {
  const output = response.output ?? [];
  const calls = output.filter(
    (item): item is OpenAI.Responses.ResponseFunctionToolCall => item.type === 'function_call',
  );
  const answer = calls.find((c) => c.name === ANSWER_TOOL_NAME);
  const parts = output.flatMap((item) => (item.type === 'message' ? item.content : []));
  const text = parts.flatMap((p) => (p.type === 'output_text' ? [p.text] : [])).join('\n');
  const refusal = parts.flatMap((p) => (p.type === 'refusal' ? [p.refusal] : [])).join('\n');
  const u = response.usage;
  const reason = response.status === 'incomplete' ? response.incomplete_details?.reason : undefined;
  return {
    model: response.model || undefined,
    arguments: answer?.arguments,
    otherCalls: calls.filter((c) => c.name !== ANSWER_TOOL_NAME).map((c) => c.name),
    text,
    refusal: refusal || undefined,
    cutOff:
      reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : undefined,
    tokens: tokens(
      u?.input_tokens,
      u?.output_tokens,
      u?.input_tokens_details?.cached_tokens,
      u?.input_tokens_details?.cache_write_tokens,
    ),
  };
}
