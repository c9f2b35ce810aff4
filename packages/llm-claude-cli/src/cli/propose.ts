import { addUsage, answerToProposal, llmAnswerJsonSchema, redactProposal } from '@suture/core/llm';
import { FixerError, type FixerContext, type FixProposalInput, type FixRequest } from '@suture/core';
import { conversationKey } from '../conversation.js';
import type { ResolvedOptions } from '../options.js';
import { CLI_ANSWER, planPrompt } from '../prompt.js';
import { redactorFor } from '../redact.js';
import { callClaude, type CallOutcome } from './call.js';
import { interpretResult } from './result.js';

interface Session {
  id: string;
  /** History entries the session has been told about. */
  seen: number;
}

/**
 * `propose` over the claude CLI. Attempts on one failure group share a claude session: the first
 * call sends the whole prompt, later ones `--resume` it with a follow-up, so the model remembers
 * what it read and tried. A session claude lost is replaced by a new one with the whole prompt.
 */
export function cliPropose(
  options: ResolvedOptions,
): (request: FixRequest, ctx: FixerContext) => Promise<FixProposalInput> {
  const sessions = new Map<string, Session>();
  const schema = llmAnswerJsonSchema();

  return async (request, ctx) => {
    const key = conversationKey(request);
    const redact = redactorFor(options);
    const call = async (session: Session | undefined): Promise<CallOutcome> => {
      const { prompt, followUp } = planPrompt(
        request,
        { templates: options.templates, answer: CLI_ANSWER, redact, readsFiles: true },
        session?.seen,
      );
      ctx.logger.debug(
        `claude: ${followUp ? `resuming session ${session!.id}` : 'new session'} for ${request.failure.id}`,
      );
      return callClaude(
        options,
        {
          prompt: prompt.user,
          systemPrompt: prompt.system,
          schema,
          ...(followUp ? { resume: session!.id } : {}),
        },
        { cwd: ctx.root, signal: ctx.signal, logger: ctx.logger },
      );
    };

    let outcome = await call(options.resume ? sessions.get(key) : undefined);
    if (outcome.kind === 'no-session') {
      ctx.logger.warn(`claude no longer has session ${sessions.get(key)?.id}; starting a new one`);
      sessions.delete(key);
      const lost = outcome.usage;
      const fresh = await call(undefined);
      outcome = { ...fresh, usage: addUsage(lost, fresh.usage) };
    }
    if (outcome.kind !== 'result') {
      throw new FixerError(
        outcome.kind === 'failed' ? outcome.reason : 'claude lost its session twice',
        outcome.usage.calls > 0 ? outcome.usage : undefined,
      );
    }

    const { result, usage } = outcome;
    // A call that reached the model left a conversation worth resuming, even a failed one.
    if (options.resume && result.session_id && usage.calls > 0)
      sessions.set(key, { id: result.session_id, seen: request.history.length });
    const verdict = interpretResult(result, outcome.exitCode, options);
    const spent = usage.calls > 0 ? usage : undefined;
    if (!verdict.ok) throw new FixerError(verdict.reason, spent);
    const parsed = answerToProposal(verdict.answer, usage);
    if (!parsed.ok) throw new FixerError(parsed.reason, spent);
    return redactProposal(parsed.proposal, redact);
  };
}
