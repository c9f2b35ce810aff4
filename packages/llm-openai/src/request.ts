import {
  ANSWER_TOOL_DESCRIPTION,
  ANSWER_TOOL_NAME,
  llmAnswerJsonSchema,
  type RenderedPrompt,
} from '@suture/core/llm';
import type OpenAI from 'openai';
import type { ResolvedOptions } from './options.js';

/** Fills the templates' {{answer}}: the proposal travels as the arguments of one function call. */
export const ANSWER_INSTRUCTIONS = [
  `Answer by calling the function \`${ANSWER_TOOL_NAME}\` exactly once; its parameters are the proposal`,
  '(each field says what it holds). Leave unused fields null and `edits` empty unless the verdict',
  'is `edits`. Do not answer in plain text: only the function call is read.',
].join('\n');

type RequestOptions = Pick<ResolvedOptions, 'model' | 'openAIHost' | 'temperature' | 'maxOutputTokens'>;

/**
 * A Chat Completions request that forces one strict call of `propose_fix`. Compatible servers
 * (Ollama, vLLM, LM Studio, Azure) all read `max_tokens`; OpenAI itself wants
 * `max_completion_tokens`, which its reasoning models require.
 */
export function chatRequest(
  prompt: RenderedPrompt,
  o: RequestOptions,
): OpenAI.Chat.ChatCompletionCreateParamsNonStreaming {
  return {
    model: o.model,
    messages: [
      { role: 'system', content: prompt.system },
      { role: 'user', content: prompt.user },
    ],
    tools: [
      {
        type: 'function',
        function: {
          name: ANSWER_TOOL_NAME,
          description: ANSWER_TOOL_DESCRIPTION,
          parameters: llmAnswerJsonSchema(),
          strict: true,
        },
      },
    ],
    tool_choice: { type: 'function', function: { name: ANSWER_TOOL_NAME } },
    ...(o.openAIHost ? { max_completion_tokens: o.maxOutputTokens } : { max_tokens: o.maxOutputTokens }),
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
  };
}

/**
 * A Responses API request with the same forced strict function. `store: false` keeps the
 * project's source out of OpenAI's stored responses: each attempt carries its own history.
 */
export function responsesRequest(
  prompt: RenderedPrompt,
  o: RequestOptions,
): OpenAI.Responses.ResponseCreateParamsNonStreaming {
  return {
    model: o.model,
    instructions: prompt.system,
    input: [{ role: 'user', content: prompt.user }],
    tools: [
      {
        type: 'function',
        name: ANSWER_TOOL_NAME,
        description: ANSWER_TOOL_DESCRIPTION,
        parameters: llmAnswerJsonSchema(),
        strict: true,
      },
    ],
    tool_choice: { type: 'function', name: ANSWER_TOOL_NAME },
    max_output_tokens: o.maxOutputTokens,
    store: false,
    ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
  };
}
