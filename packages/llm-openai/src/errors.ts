import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  RateLimitError,
} from 'openai';
import type { ResolvedOptions } from './options.js';

/** The options a call was made with, and the path it called (e.g. `/chat/completions`). */
export type CallContext = Pick<
  ResolvedOptions,
  'baseURL' | 'model' | 'apiKey' | 'apiKeyEnv' | 'retries' | 'timeoutMs' | 'openAIHost'
> & { path: string };

/** The server's own words, without the SDK's status prefix. */
function serverMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  const text = typeof body?.message === 'string' ? body.message : error.message.replace(/^\d{3}\s*/, '');
  return text.length > 300 ? `${text.slice(0, 300)}...` : text;
}

function causeOf(error: Error): string {
  const cause = error.cause as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  const inner = cause?.cause as { code?: unknown } | undefined;
  const code =
    typeof inner?.code === 'string' ? inner.code : typeof cause?.code === 'string' ? cause.code : undefined;
  return code ?? (typeof cause?.message === 'string' ? cause.message : error.message);
}

/** The option behind a parameter the server refused, or what else to try. */
function badRequestHint(param: string | null | undefined, c: CallContext): string {
  if (param === 'temperature')
    return `the model "${c.model}" does not take a temperature; remove the fixer option "temperature"`;
  if (param === 'max_tokens' || param === 'max_completion_tokens' || param === 'max_output_tokens') {
    return `the model "${c.model}" refused the output limit; change the fixer option "maxOutputTokens"`;
  }
  return `the model "${c.model}" may not support strict function calling${c.openAIHost ? '' : ' on this server; try another model'}`;
}

/**
 * Turns whatever the SDK threw into one sentence that says what happened and what to do. The
 * SDK has already retried what is worth retrying (408, 409, 429, 5xx, timeouts, connection
 * errors), so these are final.
 */
export function describeFailure(error: unknown, c: CallContext): string {
  const url = `${c.baseURL}${c.path}`;
  const after = c.retries > 0 ? ` after ${c.retries} ${c.retries === 1 ? 'retry' : 'retries'}` : '';
  const keyHint =
    c.apiKey && !c.apiKey.placeholder && c.apiKey.source === 'the apiKey option'
      ? `fix the fixer option "apiKey" (better: remove it and set ${c.apiKeyEnv})`
      : `set ${c.apiKeyEnv} to a valid key${c.apiKeyEnv === 'OPENAI_API_KEY' ? '' : ' (option "apiKeyEnv")'}`;

  if (error instanceof APIUserAbortError)
    return `the request to ${url} was cancelled: the run was interrupted`;
  if (error instanceof APIConnectionTimeoutError) {
    return `no reply from ${url} within ${c.timeoutMs} ms${after}: raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model`;
  }
  if (error instanceof APIConnectionError) {
    const where = c.openAIHost ? 'check the network and any proxy' : `is the server at ${c.baseURL} running?`;
    return `cannot connect to ${url}${after} (${causeOf(error)}): ${where}`;
  }
  if (error instanceof AuthenticationError) {
    const what = c.apiKey?.placeholder
      ? 'wants an API key and none is set'
      : `refused the API key from ${c.apiKey?.source ?? 'nowhere'}`;
    return `${c.baseURL} ${what} (401: ${serverMessage(error)}): ${keyHint}`;
  }
  if (error instanceof PermissionDeniedError) {
    return `${c.baseURL} denied the request (403: ${serverMessage(error)}): check that the key may use model "${c.model}"`;
  }
  if (error instanceof NotFoundError) {
    const pull = c.openAIHost ? '' : ` (for Ollama: \`ollama pull ${c.model}\`)`;
    return `${url} answered 404 (${serverMessage(error)}): check the fixer option "model" ("${c.model}")${pull} and that baseURL is the API root ending in /v1`;
  }
  if (error instanceof RateLimitError) {
    if (error.code === 'insufficient_quota')
      return `${c.baseURL} says the account is out of quota (429: ${serverMessage(error)}): add credit or use another key`;
    return `rate limited by ${c.baseURL}${after} (429: ${serverMessage(error)}): re-run later, raise the fixer option "retries", or lower "concurrency"`;
  }
  if (error instanceof BadRequestError) {
    const param = error.param ? ` (parameter ${error.param})` : '';
    return `${url} rejected the request${param} (400: ${serverMessage(error)}): ${badRequestHint(error.param, c)}`;
  }
  if (error instanceof InternalServerError) {
    return `${url} failed with ${error.status}${after} (${serverMessage(error)}): the server is in trouble; re-run later`;
  }
  if (error instanceof APIError && error.status !== undefined) {
    const retried = error.status === 408 || error.status === 409;
    return `${url} answered ${error.status}${retried ? after : ''}: ${serverMessage(error)}`;
  }
  return `the request to ${url} failed: ${error instanceof Error ? error.message : String(error)}`;
}
