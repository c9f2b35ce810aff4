import {
  addUsage,
  llmAnswerJsonSchema,
  PRIVATE_PATHS,
  type LlmTransport,
  type RenderedPrompt,
} from '@suture/core/llm';
import type { ResolvedOptions } from '../options.js';
import { cliAnswer } from '../prompt.js';
import { buildCliEnv } from './args.js';
import { callClaude, type CallOutcome } from './call.js';
import { interpretResult } from './result.js';
import { cliSite } from './site.js';

/**
 * The claude CLI transport. Attempts on one failure group share a claude session (its id is the
 * conversation): the first call sends the whole prompt, later ones `--resume` it with a
 * follow-up, so the model remembers what it read and tried. A session claude lost is replaced by
 * a new one with the whole prompt.
 */
export function cliTransport(options: ResolvedOptions): LlmTransport<string> {
  const schema = llmAnswerJsonSchema();
  const reads = options.tools === 'read';
  return {
    answer: cliAnswer(reads),
    readsFiles: reads,
    // claude sends an answer that fails --json-schema back itself, within --max-turns
    checksAnswers: true,
    async send({ prompt, continues, restart }, ctx) {
      const env = buildCliEnv(options);
      const privatePaths = ctx.privatePaths ?? PRIVATE_PATHS;
      const call = (p: RenderedPrompt, resume?: string): Promise<CallOutcome> =>
        callClaude(
          options,
          { prompt: p.user, systemPrompt: p.system, schema, privatePaths, ...(resume ? { resume } : {}) },
          { cwd: ctx.root, env, signal: ctx.signal, logger: ctx.logger },
        );

      let outcome = await call(prompt, continues);
      const lost = outcome.kind === 'no-session';
      if (outcome.kind === 'no-session') {
        ctx.logger.warn(`claude no longer has session ${continues}; starting a new one`);
        const fresh = await call(restart());
        outcome = { ...fresh, usage: addUsage(outcome.usage, fresh.usage) };
      }
      const ended = lost ? { conversation: null } : {};
      if (outcome.kind !== 'result') {
        const failure = outcome.kind === 'failed' ? outcome.reason : 'claude lost its session twice';
        // a timeout, a claude that would not start or printed no result: no reply from the model
        const timedOut = outcome.kind === 'failed' && outcome.timedOut === true;
        return { usage: outcome.usage, failure, noReply: true, ...(timedOut ? { timedOut } : {}), ...ended };
      }
      const { result, usage } = outcome;
      // A call that reached the model left a session worth resuming, even a failed one.
      const session = options.resume && result.session_id && usage.calls > 0 ? result.session_id : undefined;
      const next = session ? { conversation: session } : ended;
      const site = cliSite(options, env, usage.model);
      const verdict = interpretResult(result, outcome.exitCode, {
        ...options,
        ...(reads ? {} : { maxTurns: 1 + options.answerRetries, turnsOption: 'answerRetries' as const }),
        site,
      });
      return verdict.ok
        ? { usage, answer: verdict.answer, ...next }
        : { usage, failure: verdict.reason, ...(verdict.noReply ? { noReply: true } : {}), ...next };
    },
  };
}
