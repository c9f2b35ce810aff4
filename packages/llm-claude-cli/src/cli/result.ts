import {
  callFailureReason,
  clip,
  emptyUsage,
  failureOfStatus,
  missingAnswerReason,
  type CallSite,
} from '@suture/core/llm';
import { z, type Usage } from '@suture/core';
import { LOGIN_FIX } from './site.js';

const count = z.number().nonnegative().catch(0);

const ModelUsageSchema = z
  .object({
    inputTokens: count,
    outputTokens: count,
    cacheReadInputTokens: count,
    cacheCreationInputTokens: count,
    costUSD: count,
  })
  .partial();

/**
 * The last line of `claude -p --output-format json`. Only the fields suture reads are checked;
 * the rest pass through. Note what is absent on purpose: `result` is missing from error results
 * (max turns, schema retries), and `structured_output` is missing when the model never called
 * the StructuredOutput tool.
 */
export const CliResultSchema = z
  .object({
    type: z.literal('result'),
    subtype: z.string(),
    is_error: z.boolean(),
    api_error_status: z.number().nullable().optional(),
    duration_ms: z.number().optional(),
    duration_api_ms: z.number().optional(),
    num_turns: z.number().optional(),
    result: z.string().optional(),
    stop_reason: z.string().nullable().optional(),
    session_id: z.string().optional(),
    total_cost_usd: z.number().optional(),
    usage: z
      .object({
        input_tokens: count,
        output_tokens: count,
        cache_read_input_tokens: count,
        cache_creation_input_tokens: count,
      })
      .partial()
      .optional(),
    modelUsage: z.record(z.string(), ModelUsageSchema).optional(),
    structured_output: z.unknown().optional(),
    errors: z.array(z.string()).optional(),
  })
  .passthrough();
export type CliResult = z.infer<typeof CliResultSchema>;

/**
 * The result object in claude's output. stdout and stderr arrive mixed, so this takes the last
 * line that is a JSON object of type "result" rather than the whole text.
 */
export function findCliResult(output: string): CliResult | undefined {
  const lines = output.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{') || !line.includes('"result"')) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      continue;
    }
    const parsed = CliResultSchema.safeParse(value);
    if (parsed.success) return parsed.data;
  }
  return undefined;
}

/**
 * Tokens, cost and model of one call. `modelUsage` is preferred over `usage`: it counts every
 * model the call used, and it is the only one filled when the budget stopped the call.
 */
export function usageOfResult(result: CliResult, durationMs: number, fallbackModel?: string): Usage {
  const usage = emptyUsage();
  const models = Object.entries(result.modelUsage ?? {});
  if (models.length > 0) {
    for (const [, m] of models) {
      usage.inputTokens += m.inputTokens ?? 0;
      usage.outputTokens += m.outputTokens ?? 0;
      usage.cacheReadTokens += m.cacheReadInputTokens ?? 0;
      usage.cacheWriteTokens += m.cacheCreationInputTokens ?? 0;
    }
    const weight = (m: z.infer<typeof ModelUsageSchema>): number =>
      (m.inputTokens ?? 0) + (m.outputTokens ?? 0) + (m.cacheReadInputTokens ?? 0);
    usage.model = models.reduce((a, b) => (weight(b[1]) > weight(a[1]) ? b : a))[0];
  } else if (result.usage) {
    usage.inputTokens = result.usage.input_tokens ?? 0;
    usage.outputTokens = result.usage.output_tokens ?? 0;
    usage.cacheReadTokens = result.usage.cache_read_input_tokens ?? 0;
    usage.cacheWriteTokens = result.usage.cache_creation_input_tokens ?? 0;
  }
  if (!usage.model && fallbackModel) usage.model = fallbackModel;
  usage.costUsd = Math.round((result.total_cost_usd ?? 0) * 1e8) / 1e8;
  const reachedModel =
    usage.inputTokens + usage.outputTokens > 0 || usage.costUsd > 0 || (result.duration_api_ms ?? 0) > 0;
  // One `claude -p` is one request of suture's, whatever turns claude took inside it (a Read, the
  // answer, structured-output retries): num_turns also counts a resumed session's earlier turns.
  usage.calls = reachedModel ? 1 : 0;
  usage.durationMs = durationMs;
  return usage;
}

export interface ResultLimits {
  maxTurns: number;
  /** The option that sets the turns: maxTurns with tools, answerRetries without. */
  turnsOption?: 'maxTurns' | 'answerRetries';
  maxBudgetUsd?: number | undefined;
  /** The API claude called, for the reason of a failed call. */
  site: CallSite;
}

export type Interpretation =
  | { ok: true; answer: unknown }
  /** noReply: the model never replied (an API error): it counts toward the circuit breaker. */
  | { ok: false; reason: string; noReply?: boolean };

/** claude's words for an API it could not reach, with the cause in parentheses when it gives one. */
const UNREACHABLE =
  /^API Error: (?:Unable to connect to API|Connection error|Request timed out)\.?\s*(?:\(([^)]+)\))?/i;

function apiError(result: CliResult, site: CallSite, text: string): string | undefined {
  const status = result.api_error_status;
  if (/not logged in|please run \/login/i.test(text)) return `claude is not logged in: ${LOGIN_FIX}`;
  if (status === 401 || /invalid api key|oauth token (has )?expired/i.test(text))
    return callFailureReason({ kind: 'auth', status: 401, detail: clip(text, 160) }, site);
  if (status) return callFailureReason(failureOfStatus(status, clip(text, 200)), site);
  const unreachable = UNREACHABLE.exec(text);
  if (unreachable)
    return callFailureReason({ kind: 'connection', detail: unreachable[1] ?? clip(text, 120) }, site);
  return undefined;
}

/**
 * What a call came to: the model's structured answer, or a reason the attempt failed that tells
 * the user what to do. Success is `is_error: false` and exit code 0, never `subtype` (a login
 * failure says "success" there).
 */
export function interpretResult(
  result: CliResult,
  exitCode: number | null,
  limits: ResultLimits,
): Interpretation {
  const text = result.result ?? (result.errors ?? []).join('; ');
  const missing = { model: limits.site.model, expected: 'the StructuredOutput tool', text };
  if (result.is_error || exitCode !== 0) {
    if (result.stop_reason === 'refusal')
      return { ok: false, reason: missingAnswerReason({ ...missing, refusal: text }) };
    switch (result.subtype) {
      case 'error_max_turns':
        return {
          ok: false,
          reason:
            limits.turnsOption === 'answerRetries'
              ? `the model gave no answer that fits the proposal schema in ${limits.maxTurns} request${limits.maxTurns === 1 ? '' : 's'} (1 + the fixer option "answerRetries")`
              : `claude used its ${limits.maxTurns} turn${limits.maxTurns === 1 ? '' : 's'} without answering; raise the fixer option "maxTurns"`,
        };
      case 'error_max_budget_usd':
        return {
          ok: false,
          reason: `claude reached the spending limit of $${limits.maxBudgetUsd ?? '?'} of one call before answering (the fixer option "maxBudgetUsd")`,
        };
      case 'error_max_structured_output_retries':
        return {
          ok: false,
          reason: `the model's answer failed the proposal schema every time claude asked again (${clip(text, 200)})`,
        };
    }
    const api = apiError(result, limits.site, text);
    if (api) return { ok: false, reason: api, noReply: true };
    return {
      ok: false,
      reason: `claude failed (${result.subtype}${exitCode !== 0 ? `, exit code ${exitCode}` : ''}): ${clip(text || 'no message', 300)}`,
    };
  }
  if (result.structured_output === undefined || result.structured_output === null) {
    return { ok: false, reason: missingAnswerReason(missing) };
  }
  return { ok: true, answer: result.structured_output };
}
