import Anthropic from '@anthropic-ai/sdk';
import { afterRetries, statusReason } from '../error-status.js';

export interface ApiErrorContext {
  model: string;
  baseURL: string;
  retries: number;
  timeoutMs: number;
  /** Where the key came from, e.g. `$ANTHROPIC_API_KEY`. */
  keySource: string;
}

/** The message of the error body (`{"type":"error","error":{"message":...}}`), else the SDK's. */
function detail(error: InstanceType<typeof Anthropic.APIError>): string {
  const body = error.error as { error?: { message?: unknown } } | undefined;
  const message = typeof body?.error?.message === 'string' ? body.error.message : error.message;
  return message.replace(/\s+/g, ' ').slice(0, 300);
}

export function timeoutReason(ctx: ApiErrorContext): string {
  return `no answer from ${ctx.baseURL} within ${ctx.timeoutMs / 1000} s ${afterRetries(ctx.retries)}; check the network, or raise the fixer option "timeoutMs"`;
}

/**
 * Turns an SDK error into a reason the attempt failed that says what to do, or undefined when it
 * is not an API error (a bug, which should surface as it is).
 */
export function describeApiError(error: unknown, ctx: ApiErrorContext): string | undefined {
  if (error instanceof Anthropic.APIConnectionTimeoutError) return timeoutReason(ctx);
  if (error instanceof Anthropic.APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `cannot reach ${ctx.baseURL} (${error.message}${cause}); check the network, the fixer option "baseURL" or ANTHROPIC_BASE_URL`;
  }
  if (!(error instanceof Anthropic.APIError)) return undefined;
  const status = error.status;
  if (status === 401)
    return `the API rejected the key from ${ctx.keySource} (401: ${detail(error)}); set a valid ANTHROPIC_API_KEY`;
  if (status === 403)
    return `the API refused access (403: ${detail(error)}); check that the key may use ${ctx.model}`;
  if (status === 404)
    return `the API does not know ${ctx.model} at ${ctx.baseURL} (404: ${detail(error)}); check the fixer options "model" and "baseURL"`;
  if (status === 400 || status === 413 || status === 422)
    return `the API refused the request (${status}: ${detail(error)})`;
  return statusReason(status, detail(error), ctx.retries);
}
