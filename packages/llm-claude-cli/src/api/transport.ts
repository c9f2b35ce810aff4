import Anthropic from '@anthropic-ai/sdk';
import {
  ANSWER_TOOL_DESCRIPTION,
  ANSWER_TOOL_NAME,
  answerToProposal,
  costOf,
  emptyUsage,
  findPrice,
  llmAnswerJsonSchema,
  redactProposal,
} from '@suture/core/llm';
import {
  FixerError,
  type FixerContext,
  type FixProposalInput,
  type FixRequest,
  type Usage,
} from '@suture/core';
import { conversationKey } from '../conversation.js';
import { DEFAULT_API_MODEL, type ResolvedOptions } from '../options.js';
import { API_ANSWER, planPrompt } from '../prompt.js';
import { redactorFor } from '../redact.js';
import { apiCredentials } from './credentials.js';
import { describeApiError, timeoutReason } from './errors.js';

type MessageParam = Anthropic.MessageParam;

interface Conversation {
  messages: MessageParam[];
  /** The answer tool call the next user turn must answer with a tool_result. */
  toolUseId: string;
  seen: number;
}

export function usageOfMessage(
  message: Anthropic.Message,
  options: Pick<ResolvedOptions, 'prices'>,
  durationMs: number,
): Usage {
  const u = message.usage;
  const tokens = {
    inputTokens: u.input_tokens ?? 0,
    outputTokens: u.output_tokens ?? 0,
    cacheReadTokens: u.cache_read_input_tokens ?? 0,
    cacheWriteTokens: u.cache_creation_input_tokens ?? 0,
  };
  return {
    ...emptyUsage(message.model),
    ...tokens,
    costUsd: costOf(findPrice(options.prices, message.model), tokens),
    calls: 1,
    durationMs,
  };
}

/** Longest a call may take: every try at the full timeout, plus the SDK's longest backoffs (8 s). */
export function callDeadlineMs(options: Pick<ResolvedOptions, 'timeoutMs' | 'retries'>): number {
  return options.timeoutMs * (options.retries + 1) + 8_000 * options.retries;
}

/**
 * `propose` over the Messages API. The answer is forced through the answer tool
 * (`tool_choice: {type: 'tool'}`), and attempts on one failure group continue one message
 * history: the next turn answers the previous tool call with what suture did with it.
 */
export function apiPropose(
  options: ResolvedOptions,
): (request: FixRequest, ctx: FixerContext) => Promise<FixProposalInput> {
  const model = options.model ?? DEFAULT_API_MODEL;
  const conversations = new Map<string, Conversation>();
  const tool: Anthropic.Tool = {
    name: ANSWER_TOOL_NAME,
    description: ANSWER_TOOL_DESCRIPTION,
    input_schema: llmAnswerJsonSchema() as Anthropic.Tool.InputSchema,
  };
  let warnedPrice = false;

  return async (request, ctx) => {
    const credentials = apiCredentials(options);
    if (!credentials) {
      throw new Error(
        `no Anthropic API key: set ${options.apiKeyEnv} (or ANTHROPIC_AUTH_TOKEN), or use mode "cli" with a logged-in claude`,
      );
    }
    const baseURL = options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
    const client = new Anthropic({
      ...(credentials.apiKey ? { apiKey: credentials.apiKey } : { authToken: credentials.authToken! }),
      baseURL,
      timeout: options.timeoutMs,
      maxRetries: options.retries,
    });
    const key = conversationKey(request);
    const earlier = options.resume ? conversations.get(key) : undefined;
    const redact = redactorFor(options);
    const { prompt, followUp } = planPrompt(
      request,
      { templates: options.templates, answer: API_ANSWER, redact, readsFiles: false },
      earlier?.seen,
    );
    const messages: MessageParam[] =
      followUp && earlier
        ? [
            ...earlier.messages,
            {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: earlier.toolUseId,
                  content: 'suture validated, applied and tested your proposal; the outcome follows.',
                },
                { type: 'text', text: prompt.user },
              ],
            },
          ]
        : [{ role: 'user', content: prompt.user }];

    const started = Date.now();
    // The SDK's timeout ends at the response headers; a server that sends them and then stalls
    // would hold the attempt forever, so the whole call, retries included, has a deadline too.
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), callDeadlineMs(options));
    const errorContext = {
      model,
      baseURL,
      retries: options.retries,
      timeoutMs: options.timeoutMs,
      keySource: credentials.source,
    };
    let message: Anthropic.Message;
    try {
      message = await client.messages.create(
        {
          model,
          max_tokens: options.maxOutputTokens,
          system: prompt.system,
          messages,
          tools: [tool],
          tool_choice: { type: 'tool', name: ANSWER_TOOL_NAME },
        },
        { signal: AbortSignal.any([ctx.signal, deadline.signal]) },
      );
    } catch (error) {
      if (ctx.signal.aborted)
        throw new Error('the run was interrupted while the Anthropic API was answering', { cause: error });
      if (deadline.signal.aborted) throw new Error(timeoutReason(errorContext), { cause: error });
      const reason = describeApiError(error, errorContext);
      if (reason) throw new Error(reason, { cause: error });
      throw error;
    } finally {
      clearTimeout(timer);
    }
    const usage = usageOfMessage(message, options, Date.now() - started);
    if (usage.costUsd === 0 && !findPrice(options.prices, message.model) && !warnedPrice) {
      warnedPrice = true;
      ctx.logger.warn(
        `@suture/llm-claude-cli: no price for ${message.model}; its cost counts as 0 until the fixer option "prices" names it`,
      );
    }

    const call = message.content.find(
      (b): b is Anthropic.ToolUseBlock => b.type === 'tool_use' && b.name === ANSWER_TOOL_NAME,
    );
    if (call && message.stop_reason !== 'max_tokens') {
      conversations.set(key, {
        messages: [...messages, { role: 'assistant', content: message.content }],
        toolUseId: call.id,
        seen: request.history.length,
      });
    } else {
      conversations.delete(key);
    }
    if (message.stop_reason === 'refusal')
      throw new FixerError(
        `the model refused to answer${textOf(message) ? `: ${textOf(message)}` : ''}`,
        usage,
      );
    if (message.stop_reason === 'max_tokens') {
      throw new FixerError(
        `the answer was cut off at ${options.maxOutputTokens} output tokens; raise the fixer option "maxOutputTokens"`,
        usage,
      );
    }
    if (!call)
      throw new FixerError(
        `the model answered in plain text instead of calling ${ANSWER_TOOL_NAME}: "${textOf(message) || '(empty)'}"`,
        usage,
      );
    const parsed = answerToProposal(call.input, usage);
    if (!parsed.ok) throw new FixerError(parsed.reason, usage);
    return redactProposal(parsed.proposal, redact);
  };
}

function textOf(message: Anthropic.Message): string {
  const text = message.content
    .filter((b): b is Anthropic.TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 200)}...` : text;
}
