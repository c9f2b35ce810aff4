import type { ApiKey } from './api-key.js';
import { formatDuration } from '../text/duration.js';

/** Why a call to a model API came back without a reply, whatever the transport. */
export type CallFailureKind =
  | 'auth'
  | 'forbidden'
  | 'not-found'
  | 'rate-limit'
  | 'quota'
  | 'server'
  | 'bad-request'
  | 'status'
  | 'timeout'
  | 'connection'
  | 'cancelled'
  | 'other';

export interface CallFailure {
  kind: CallFailureKind;
  status?: number | undefined;
  /** The server's own words, the cause of a connection error (`ECONNREFUSED`), or an error's message. */
  detail: string;
  /** The request parameter a 400 names, when the server says. */
  param?: string | undefined;
}

/** Where a call went and with what, for the reason a user reads. */
export interface CallSite {
  /** The API root (`https://api.openai.com/v1`), or what was called (`claude`). */
  endpoint: string;
  /** The path called under it (`/chat/completions`), when it is known. */
  path?: string | undefined;
  model: string;
  /** Retries made before this failure was final. */
  retries: number;
  timeoutMs: number;
  /** The key sent, for a 401: where it came from, or that none was set. */
  key: ApiKey | undefined;
  /** What to do about a refused key (see `keyFix`). */
  keyFix: string;
  /** A server the user runs (Ollama, vLLM, a proxy) rather than the vendor's: connection advice differs. */
  selfHosted: boolean;
}

/** What to do, when a transport knows better than the uniform advice (a 404 on Ollama). */
export type CallFailureHint = (failure: CallFailure) => string | undefined;

/** " after 1 retry", " after 2 retries", or nothing when there was none. */
export function afterRetries(n: number): string {
  return n > 0 ? ` after ${n} ${n === 1 ? 'retry' : 'retries'}` : '';
}

export { formatDuration };

/** The failure an HTTP status means; `code` tells an exhausted quota from a rate limit. */
export function failureOfStatus(status: number, detail: string, code?: unknown): CallFailure {
  const kind: CallFailureKind =
    status === 401
      ? 'auth'
      : status === 403
        ? 'forbidden'
        : status === 404
          ? 'not-found'
          : status === 429
            ? code === 'insufficient_quota'
              ? 'quota'
              : 'rate-limit'
            : status >= 500
              ? 'server'
              : status === 400 || status === 413 || status === 422
                ? 'bad-request'
                : 'status';
  return { kind, status, detail };
}

/**
 * One sentence that says what happened and what to do, the same for every LLM fixer. The
 * transport's SDK has already retried what is worth retrying (408, 409, 429, 5xx, timeouts,
 * connection errors), so these failures are final.
 */
export function callFailureReason(f: CallFailure, site: CallSite, hint?: CallFailureHint): string {
  const { endpoint, model } = site;
  const url = `${endpoint}${site.path ?? ''}`;
  const after = afterRetries(site.retries);
  const said = `${f.status}: ${f.detail}`;
  const fix = hint?.(f);
  switch (f.kind) {
    case 'timeout':
      return `no reply from ${url} within ${formatDuration(site.timeoutMs)}${after}: ${fix ?? 'raise the fixer option "timeoutMs", lower "maxOutputTokens", or use a faster model'}`;
    case 'connection': {
      const where = site.selfHosted
        ? `is the server at ${endpoint} running?`
        : 'check the network and any proxy';
      return `cannot connect to ${url}${after} (${f.detail}): ${fix ?? where}`;
    }
    case 'cancelled':
      return `the request to ${url} was cancelled: the run was interrupted`;
    case 'auth': {
      const what =
        !site.key || site.key.placeholder
          ? 'wants an API key and none is set'
          : `refused the API key from ${site.key.source}`;
      return `${endpoint} ${what} (${said}): ${fix ?? site.keyFix}`;
    }
    case 'forbidden':
      return `${endpoint} denied the request (${said}): ${fix ?? `check that the key may use model "${model}"`}`;
    case 'not-found':
      return `${url} answered 404 (${f.detail}): ${fix ?? `check the fixer options "model" ("${model}") and "baseURL"`}`;
    case 'rate-limit':
      return `rate limited by ${endpoint}${after} (${said}): ${fix ?? 're-run later, raise the fixer option "retries", or lower "concurrency"'}`;
    case 'quota':
      return `${endpoint} says the account is out of quota (${said}): ${fix ?? 'add credit or use another key'}`;
    case 'server':
      return `${url} failed with ${f.status}${after} (${f.detail}): ${fix ?? 'the server is in trouble; re-run later'}`;
    case 'bad-request': {
      const param = f.param ? ` (parameter ${f.param})` : '';
      return `${url} rejected the request${param} (${said})${fix ? `: ${fix}` : ''}`;
    }
    case 'status': {
      const retried = f.status === 408 || f.status === 409;
      return `${url} answered ${f.status}${retried ? after : ''}: ${f.detail}${fix ? `; ${fix}` : ''}`;
    }
    case 'other':
      return `the request to ${url} failed: ${f.detail}`;
  }
}
