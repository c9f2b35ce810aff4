import {
  answerToProposal,
  costOf,
  findPrice,
  redactProposal,
  renderFixPrompt,
  type Redactor,
} from '@suture/core/llm';
import {
  FixerError,
  type FixerContext,
  type FixProposalInput,
  type FixRequest,
  type Usage,
} from '@suture/core';
import type OpenAI from 'openai';
import { describeFailure } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { readChatCompletion, readResponse, type ModelReply } from './reply.js';
import { ANSWER_INSTRUCTIONS, chatRequest, responsesRequest } from './request.js';

export interface ProposeDeps {
  options: ResolvedOptions;
  client: () => OpenAI;
  redact: Redactor;
  /** Called once per model with no price on OpenAI, so the cost of 0 is not taken for real. */
  onUnpricedModel: (model: string) => void;
}

function usageOf(reply: ModelReply, deps: ProposeDeps, durationMs: number): Usage {
  const { options } = deps;
  const model = reply.model ?? options.model;
  // The name the user configured (and priced) first; a server may report a dated or aliased name.
  const price = findPrice(options.prices, options.model) ?? findPrice(options.prices, model);
  if (!price && options.openAIHost) deps.onUnpricedModel(model);
  const t = {
    inputTokens: reply.tokens.input,
    outputTokens: reply.tokens.output,
    cacheReadTokens: reply.tokens.cacheRead,
    cacheWriteTokens: reply.tokens.cacheWrite,
  };
  return { model, ...t, costUsd: costOf(price, t), calls: 1, durationMs };
}

/** Why a reply holds no usable `propose_fix` call, in words that say what to change. */
function noAnswerReason(reply: ModelReply, o: ResolvedOptions): string {
  const who = `the model "${reply.model ?? o.model}"`;
  if (reply.cutOff === 'length') {
    return `${who} ran out of output tokens (maxOutputTokens ${o.maxOutputTokens}) before it finished its answer: raise the fixer option "maxOutputTokens"`;
  }
  if (reply.cutOff === 'content-filter')
    return `${who} stopped at the content filter of ${o.baseURL}: no answer`;
  if (reply.refusal) return `${who} refused to answer: ${reply.refusal.slice(0, 300)}`;
  if (reply.otherCalls.length > 0)
    return `${who} called ${reply.otherCalls.join(', ')} instead of propose_fix`;
  const text = reply.text.trim();
  return `${who} answered in plain text instead of calling propose_fix (does it support tool calling${o.openAIHost ? '' : ` on ${o.baseURL}`}? try a model that does)${text ? `: ${text.slice(0, 200)}` : ': the reply was empty'}`;
}

/**
 * One attempt: render the prompt, make one call (the SDK retries transient errors), read the
 * forced `propose_fix` call and turn it into a proposal. Every failure is an Error whose message
 * says what to do; once tokens were spent it is a FixerError carrying the usage.
 */
export async function propose(
  request: FixRequest,
  ctx: FixerContext,
  deps: ProposeDeps,
): Promise<FixProposalInput> {
  const o = deps.options;
  const path = o.api === 'chat' ? '/chat/completions' : '/responses';
  if (!o.apiKey) {
    throw new Error(
      `no API key for ${o.baseURL}: set ${o.apiKeyEnv}${o.apiKeyEnv === 'OPENAI_API_KEY' ? '' : ' (option "apiKeyEnv")'}, or point "baseURL" at a local server that needs none`,
    );
  }
  const prompt = renderFixPrompt(request, {
    templates: o.templates,
    answer: ANSWER_INSTRUCTIONS,
    redact: deps.redact,
  });
  ctx.logger.debug(
    `${o.model} at ${o.baseURL}${path}: ${prompt.kind} prompt, attempt ${request.attempt} of ${request.maxAttempts}`,
  );
  const started = Date.now();
  let reply: ModelReply;
  try {
    reply =
      o.api === 'chat'
        ? readChatCompletion(
            await deps.client().chat.completions.create(chatRequest(prompt, o), { signal: ctx.signal }),
          )
        : readResponse(
            await deps.client().responses.create(responsesRequest(prompt, o), { signal: ctx.signal }),
          );
  } catch (error) {
    throw new Error(deps.redact(describeFailure(error, { ...o, path })), { cause: error });
  }
  const usage = usageOf(reply, deps, Date.now() - started);
  // Arguments cut off at the token limit are broken JSON: say so rather than "not JSON".
  if (reply.arguments === undefined || reply.cutOff === 'length')
    throw new FixerError(deps.redact(noAnswerReason(reply, o)), usage);
  const parsed = answerToProposal(reply.arguments, usage);
  if (!parsed.ok) throw new FixerError(deps.redact(`${parsed.reason} (model "${usage.model}")`), usage);
  return redactProposal(parsed.proposal, deps.redact);
}
