import type { AttemptSummary, FixProposalInput, FixRequest, Usage } from '../api/contracts/fix.js';
import { FixerError, usageOfError } from '../api/errors.js';
import { API_VERSION, type DoctorCheck, type Fixer, type FixerContext } from '../api/plugin.js';
import type { Redactor } from '../safety/redact.js';
import { answerToProposal, redactProposal } from './answer.js';
import { CallGuard } from './call-guard.js';
import { withCassette, type Taped } from './cassette.js';
import { conversationKey, planPrompt } from './conversation.js';
import type { LlmSettings } from './fixer-options.js';
import { addUsage } from './pricing.js';
import { renderFixPrompt, type RenderedPrompt, type RenderOptions } from './prompt.js';
import { verdictWords } from './prompt-sections.js';
import { createUsageMeter, type MeteredCall } from './usage-meter.js';

/** What became of the proposal the conversation's last answer carried, for the turn that answers it. */
export interface ProposalFate {
  /** The patch was applied and the tests re-run; false when it never touched the files. */
  applied: boolean;
  text: string;
}

/** One call a transport makes: what to send, and the fixer's services it may use. */
export interface TransportCall<S> {
  request: FixRequest;
  /** Redacted already: the whole prompt, or a follow-up when `continues` is set. */
  prompt: RenderedPrompt;
  /** The conversation this prompt continues; undefined starts a new one. */
  continues: S | undefined;
  /**
   * When `continues` is set: what became of the last answer of that conversation (a tool-call
   * transport answers the call with it instead of pretending it was applied).
   */
  fate?: ProposalFate;
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
} & (
  | { answer: unknown }
  | {
      failure: string;
      /**
       * The model never replied (the endpoint was down, hung, refused the key): a failure the
       * transport could only report, such as claude's result of an API error. It counts toward
       * the circuit breaker as a thrown call does; any other failure is a reply that closes the count.
       */
      noReply?: boolean;
      /** With `noReply`: the call ran out its time limit, which opens the breaker at once. */
      timedOut?: boolean;
    }
);

/** How an LLM package talks to its model: all it has to write. */
export interface LlmTransport<S = never> {
  /** How this transport hands the answer back (fills the templates' {{answer}}). */
  answer: string;
  /** The model reads the project itself (Claude Code's read-only tools). */
  readsFiles?: boolean;
  /** The transport already sends an answer that fails the schema back to the model (claude --json-schema). */
  checksAnswers?: boolean;
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
  /** The model the cassette keys requests by when none is configured. */
  defaultModel?: string;
  doctor?: () => Promise<DoctorCheck[]>;
}

/** The same error with secrets masked in its message (an SDK may echo a key back). */
function redactError(error: unknown, redact: Redactor): unknown {
  if (!(error instanceof Error)) return error;
  const message = redact(error.message);
  if (message === error.message) return error;
  const copy =
    error instanceof FixerError
      ? new FixerError(message, error.usage, { cause: error })
      : new Error(message, { cause: error });
  if ((error as { unavailable?: unknown }).unavailable === true) Object.assign(copy, { unavailable: true });
  return copy;
}

/** The fate of the newest attempt a conversation has not seen. */
function fateOf(unseen: readonly AttemptSummary[]): ProposalFate | undefined {
  const last = unseen.at(-1);
  if (!last) return undefined;
  return {
    applied: last.verdict === 'failed-validation',
    text: `suture's verdict on your proposal: ${verdictWords(last.verdict)}. What happened follows.`,
  };
}

/** The turn that sends an answer back because it failed the proposal schema. */
function reAsk(reason: string, kind: RenderedPrompt['kind'], system: string): RenderedPrompt {
  return {
    kind,
    system,
    user: `Your answer could not be used: ${reason}. Nothing was applied. Answer again with the complete proposal, following the schema exactly.`,
  };
}

/**
 * An LLM fixer around a transport. The base renders and redacts the prompt, keeps the
 * conversations, prices the tokens, keeps to the run's budget, takes itself out of the run when
 * its endpoint keeps failing, sends an answer that fails the schema back a bounded number of
 * times, records and replays answers on a cassette, turns the answer into a proposal, and makes
 * every failure a reason without secrets: a FixerError carrying the usage once tokens were spent.
 */
export function llmFixer<S = never>(spec: LlmFixerSpec<S>): Fixer {
  const { name, settings } = spec;
  const { redact } = settings;
  const transport: LlmTransport<S | Taped<S>> = settings.cassette
    ? withCassette(spec.transport, settings.cassette, {
        fixer: name,
        model: settings.model ?? spec.defaultModel ?? 'default',
        redact,
      })
    : spec.transport;
  const meter = createUsageMeter(name, settings.prices, spec.warnUnpriced ?? true);
  const conversations = new Map<string, { state: S | Taped<S>; seen: number }>();
  const guard = new CallGuard(settings.circuitBreaker);
  const render: RenderOptions = {
    templates: settings.templates,
    answer: transport.answer,
    redact,
    readsFiles: transport.readsFiles ?? false,
  };

  async function propose(request: FixRequest, ctx: FixerContext): Promise<FixProposalInput> {
    const key = conversationKey(request);
    const earlier = spec.resume ? conversations.get(key) : undefined;
    const { prompt: first, followUp } = planPrompt(request, render, earlier?.seen);
    ctx.logger.debug(
      `${name}: ${followUp ? 'follow-up' : first.kind} prompt for ${request.failure.id}, attempt ${request.attempt} of ${request.maxAttempts}`,
    );
    let prompt = first;
    let continues = followUp ? earlier?.state : undefined;
    let fate = followUp ? fateOf(request.history.slice(earlier?.seen ?? 0)) : undefined;
    let total: Usage | undefined;
    const reAsks = transport.checksAnswers ? 0 : settings.answerRetries;
    for (let ask = 0; ; ask++) {
      guard.admit(ctx, total);
      let reply: TransportReply<S | Taped<S>>;
      try {
        reply = await transport.send(
          {
            request,
            prompt,
            continues,
            ...(continues !== undefined && fate ? { fate } : {}),
            restart: () => renderFixPrompt(request, render),
            meter: (call) => meter(call, ctx.logger),
          },
          { ...ctx, signal: guard.signal(ctx) },
        );
      } catch (error) {
        const thrown = usageOfError(error);
        const pending = total && thrown ? addUsage(total, thrown) : (thrown ?? total);
        throw redactError(guard.failed(error, ctx, pending), redact);
      }
      total = total ? addUsage(total, reply.usage) : reply.usage;
      // A call that reached the model leaves a conversation worth continuing, even a failed one.
      const next = reply.conversation;
      if (spec.resume && next === null) conversations.delete(key);
      else if (spec.resume && next !== undefined && next !== null)
        conversations.set(key, { state: next, seen: request.history.length });

      const spent = total.calls > 0 ? total : undefined;
      if ('failure' in reply && reply.noReply) {
        const error = new FixerError(reply.failure, spent);
        if (reply.timedOut) Object.assign(error, { timedOut: true });
        throw redactError(guard.failed(error, ctx, total), redact);
      }
      guard.replied();
      if ('failure' in reply) throw new FixerError(redact(reply.failure), spent);
      const parsed = answerToProposal(reply.answer, total);
      if (parsed.ok) return redactProposal(parsed.proposal, redact);
      const model = total.model ? ` (model "${total.model}")` : '';
      if (ask >= reAsks) {
        const tries =
          ask > 0
            ? `; ${ask} re-ask${ask === 1 ? '' : 's'} failed too (the fixer option "answerRetries")`
            : '';
        throw new FixerError(redact(`${parsed.reason}${model}${tries}`), spent);
      }
      // The model gets its own answer's fault back, in its conversation when there is one.
      const live = spec.resume ? conversations.get(key)?.state : (next ?? undefined);
      ctx.logger.debug(`${name}: re-asking after an unusable answer: ${parsed.reason}`);
      if (live !== undefined) {
        prompt = reAsk(parsed.reason, first.kind, first.system);
        continues = live;
        fate = { applied: false, text: `Your answer could not be used: ${parsed.reason}.` };
      } else {
        const whole = renderFixPrompt(request, render);
        prompt = {
          ...whole,
          user: `${whole.user}\n\n${reAsk(parsed.reason, first.kind, first.system).user}`,
        };
        continues = undefined;
        fate = undefined;
      }
    }
  }

  return {
    name,
    apiVersion: API_VERSION,
    propose,
    ...(spec.doctor ? { doctor: spec.doctor } : {}),
  };
}
