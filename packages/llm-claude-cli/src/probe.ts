import { connectionCause } from '@suture/core/llm';
import type { DoctorCheck } from '@suture/core';

/** `suture doctor` answers at once; a healthy endpoint lists its models well within this. */
export const PROBE_TIMEOUT_MS = 5_000;

export interface ProbeTarget {
  /** API root, without `/v1`. */
  baseURL: string;
  /** The credential claude or the SDK would send, when there is one. */
  key?: { value: string; bearer: boolean; source: string } | undefined;
  /** What to change when the endpoint is wrong: the option or variable that set it. */
  urlSource: string;
}

function failureOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  return connectionCause(error);
}

/**
 * Does the endpoint answer, and does it take the key? One request that costs no tokens: the
 * models list with the key, or a plain HEAD without one (a subscription login). No retries:
 * doctor reports an outage, it does not wait it out.
 */
export async function probeEndpoint(target: ProbeTarget): Promise<DoctorCheck> {
  const root = target.baseURL.replace(/\/+$/, '');
  const url = target.key ? `${root}/v1/models?limit=1` : root;
  const headers: Record<string, string> = { 'anthropic-version': '2023-06-01' };
  if (target.key) {
    if (target.key.bearer) headers.authorization = `Bearer ${target.key.value}`;
    else headers['x-api-key'] = target.key.value;
  }
  let status: number;
  try {
    const response = await fetch(url, {
      method: target.key ? 'GET' : 'HEAD',
      headers,
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    status = response.status;
    await response.body?.cancel();
  } catch (error) {
    return {
      name: 'endpoint',
      status: 'error',
      message: `cannot reach ${root}: ${failureOf(error)}`,
      fix: `start the server or fix ${target.urlSource}`,
    };
  }
  if (!target.key)
    return {
      name: 'endpoint',
      status: 'ok',
      message: `${root} answers (HTTP ${status}; the key is claude's login)`,
    };
  if (status === 401 || status === 403)
    return {
      name: 'endpoint',
      status: 'error',
      message: `${root} rejects the key from ${target.key.source} (HTTP ${status})`,
      fix: `set ${target.key.source.replace(/^\$/, '')} to a valid key`,
    };
  if (status === 404)
    return {
      name: 'endpoint',
      status: 'warn',
      message: `${root} answers but has no /v1/models (HTTP 404): a proxy may still serve /v1/messages`,
      fix: `check ${target.urlSource} if calls fail`,
    };
  if (status >= 400)
    return {
      name: 'endpoint',
      status: 'error',
      message: `${root}/v1/models answered HTTP ${status}`,
      fix: status >= 500 ? 're-run doctor later: the server is in trouble' : `check ${target.urlSource}`,
    };
  return {
    name: 'endpoint',
    status: 'ok',
    message: `${root} answers and takes the key from ${target.key.source}`,
  };
}
