import type { FixProposalInput, FixRequest, Usage } from '../api/contracts/fix.js';
import { FixerError } from '../api/errors.js';
import { API_VERSION, type DoctorCheck, type Fixer, type FixerContext } from '../api/plugin.js';
import type { Redactor } from '../safety/redact.js';
import { answerToProposal, redactProposal } from './answer.js';
import { conversationKey, planPrompt } from './conversation.js';
import type { LlmSettings } from './fixer-options.js';
import { renderFixPrompt, type RenderedPrompt, type RenderOptions } from './prompt.js';
import { createUsageMeter, type MeteredCall } from './usage-meter.js';

/** One call a transport makes: what to send, and the fixer's services it may use. */
export interface TransportCall<S> {
  request: FixRequest;
  /** Redacted already: the whole prompt, or a follow-up when `continues` is set. */
  prompt: RenderedPrompt;
  /** The conversation this prompt continues; undefined starts a new one. */
  continues: S | undefined;
  /** The whole prompt, for a transport that lost the conversation it was to continue. */
  restart(): RenderedPrompt;
  /** Usage of one call from the tokens its API counted, priced from the fixer's table. */
  meter(call: MeteredCall): Usage;
}

/** What came back: the raw answer, or why there is none, with what it cost. */
export type TransportReply<S> = {
  usage: Usage;
  /** The conversation to continue on this failure's next attempt; null ends it, absent keeps the last. */
  conversation?: S | null;
} & ({ answer: unknown } | { failure: string });

/** How an LLM package talks to its model: all it has to write. */
export interface LlmTransport<S = never> {
  /** How this transport hands the answer back (fills the templates' {{answer}}). */
  answer: string;
  /** The model reads the project itself (Claude Code's read-only tools). */
  readsFiles?: boolean;
  /**
   * Sends the prompt and returns the raw answer (the answer tool's arguments, an object or a JSON
   * string) or, when the model replied without one, why. Throws an Error whose message says what
   * to do when no reply came back (see `callFailureReason`).
   */
  send(call: TransportCall<S>, ctx: FixerContext): Promise<TransportReply<S>>;
}

export interface LlmFixerSpec<S> {
  /** The package name. */
  name: string;
  settings: LlmSettings;
  transport: LlmTransport<S>;
  /** One conversation per failure group, so a retry sees what was tried. */
  resume?: boolean;
  /** Warn once per model without a price (off for a server the user runs, which costs nothing). */
  warnUnpriced?: boolean;
  doctor?: () => Promise<DoctorCheck[]>;
}

/** The same error with secrets masked in its message (an SDK may echo a key back). */
function redactError(error: unknown, redact: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  const message = redact(error.message);
  if (message === error.message) return error;
  return error instanceof FixerError
    ? new FixerError(message, error.usage, { cause: error })
    : new Error(message, { cause: error });
}

/**
 * An LLM fixer around a transport. The base renders and redacts the prompt, keeps the
 * conversations, prices the tokens, turns the answer into a proposal, and makes every failure a
 * reason without secrets: a FixerError carrying the usage once tokens were spent.
 */
export function llmFixer<S = never>(spec: LlmFixerSpec<S>): Fixer {
  const { name, settings, transport } = spec;
  const { redact } = settings;
  const meter = createUsageMeter(name, settings.prices, spec.warnUnpriced ?? true);
  const conversations = new Map<string, { state: S; seen: number }>();
  const render: RenderOptions = {
    templates: settings.templates,
    answer: transport.answer,
    redact,
    readsFiles: transport.readsFiles ?? false,
  };

  async function propose(request: FixRequest, ctx: FixerContext): Promise<FixProposalInput> {
    const key = conversationKey(request);
    const earlier = spec.resume ? conversations.get(key) : undefined;
    const { prompt, followUp } = planPrompt(request, render, earlier?.seen);
    ctx.logger.debug(
      `${name}: ${followUp ? 'follow-up' : prompt.kind} prompt for ${request.failure.id}, attempt ${request.attempt} of ${request.maxAttempts}`,
    );
    let reply: TransportReply<S>;
    try {
      reply = await transport.send(
        {
          request,
          prompt,
          continues: followUp ? earlier?.state : undefined,
          restart: () => renderFixPrompt(request, render),
          meter: (call) => meter(call, ctx.logger),
        },
        ctx,
      );
    } catch (error) {
      throw redactError(error, redact);
    }
    // A call that reached the model leaves a conversation worth continuing, even a failed one.
    const next = reply.conversation;
    if (spec.resume && next === null) conversations.delete(key);
    else if (spec.resume && next !== undefined)
      conversations.set(key, { state: next as S, seen: request.history.length });

    const { usage } = reply;
    const spent = usage.calls > 0 ? usage : undefined;
    if ('failure' in reply) throw new FixerError(redact(reply.failure), spent);
    const parsed = answerToProposal(reply.answer, usage);
    if (!parsed.ok) {
      const model = usage.model ? ` (model "${usage.model}")` : '';
      throw new FixerError(redact(`${parsed.reason}${model}`), spent);
    }
    return redactProposal(parsed.proposal, redact);
  }

  return { name, apiVersion: API_VERSION, propose, ...(spec.doctor ? { doctor: spec.doctor } : {}) };
}
