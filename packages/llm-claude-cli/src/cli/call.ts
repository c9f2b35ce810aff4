import { addUsage, callFailureReason, emptyUsage } from '@suture/core/llm';
import { runProcess, type Logger, type Usage } from '@suture/core';
import type { ResolvedOptions } from '../options.js';
import { buildCliArgs, type CallArgs } from './args.js';
import { findCliResult, usageOfResult, type CliResult } from './result.js';
import { cliSite } from './site.js';
import { findExecutable, notFound } from './which.js';

export interface CallContext {
  /** The project root: claude runs there, and its sessions are kept per folder. */
  cwd: string;
  /** claude's environment (`buildCliEnv`). */
  env: Record<string, string>;
  signal: AbortSignal;
  logger: Logger;
}

export type CallOutcome =
  | { kind: 'result'; result: CliResult; exitCode: number | null; usage: Usage }
  /** `--resume` named a session claude no longer has (deleted, or another config dir). */
  | { kind: 'no-session'; usage: Usage }
  /** `timedOut`: every try ran out of `timeoutMs`. */
  | { kind: 'failed'; reason: string; usage: Usage; timedOut?: boolean };

/** Whole-file answers can be long, and claude prints the answer twice (`result` and `structured_output`). */
const OUTPUT_BYTES = 16 * 1024 * 1024;

export class InterruptedError extends Error {
  override name = 'InterruptedError';
  constructor() {
    super('the run was interrupted while claude was working');
  }
}

function lastLines(output: string, n = 5): string {
  return output.trim().split('\n').slice(-n).join(' | ').slice(0, 500);
}

/**
 * One headless call of claude, started again when it times out (`timeoutRetries` times): claude
 * then hangs on a network that does not answer, and a fresh start is the only cure. Each timed
 * out try counts as a call with unknown tokens.
 */
export async function callClaude(
  options: ResolvedOptions,
  call: CallArgs & { prompt: string },
  ctx: CallContext,
): Promise<CallOutcome> {
  const { env } = ctx;
  const executable = await findExecutable(options.command, env);
  if (!executable)
    return { kind: 'failed', reason: notFound(options.command), usage: emptyUsage(options.model) };
  const args = buildCliArgs(options, call);
  const tries = options.timeoutRetries + 1;
  let usage = emptyUsage(options.model);
  for (let attempt = 1; attempt <= tries; attempt++) {
    const run = await runProcess(executable, args, {
      cwd: ctx.cwd,
      env,
      timeoutMs: options.timeoutMs,
      signal: ctx.signal,
      input: call.prompt,
      tailBytes: OUTPUT_BYTES,
    });
    if (run.aborted) throw new InterruptedError();
    if (run.spawnError)
      return { kind: 'failed', reason: `cannot start ${executable}: ${run.spawnError}`, usage };
    if (run.timedOut) {
      usage = addUsage(usage, { ...emptyUsage(), calls: 1, durationMs: run.durationMs });
      if (attempt < tries)
        ctx.logger.warn(
          `claude did not answer within ${options.timeoutMs / 1000} s (try ${attempt} of ${tries}); starting it again`,
        );
      continue;
    }
    const result = findCliResult(run.output);
    if (result)
      return {
        kind: 'result',
        result,
        exitCode: run.exitCode,
        usage: addUsage(usage, usageOfResult(result, run.durationMs, options.model)),
      };
    if (/No conversation found with session ID/i.test(run.output)) return { kind: 'no-session', usage };
    return {
      kind: 'failed',
      reason: `claude exited with code ${run.exitCode ?? run.signal} without a result: ${lastLines(run.output) || 'no output'}`,
      usage,
    };
  }
  const site = { ...cliSite(options, env), endpoint: 'claude', path: undefined, retries: tries - 1 };
  const fix = 'check the network (and ANTHROPIC_BASE_URL), or raise the fixer option "timeoutMs"';
  return {
    kind: 'failed',
    reason: callFailureReason({ kind: 'timeout', detail: '' }, site, () => fix),
    usage,
    timedOut: true,
  };
}
