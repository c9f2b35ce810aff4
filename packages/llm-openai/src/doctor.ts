import type { DoctorCheck } from '@suture/core';
import { APIConnectionError, AuthenticationError, NotFoundError } from 'openai';
import { createClient } from './client.js';
import { describeFailure } from './errors.js';
import type { ResolvedOptions } from './options.js';

/** `suture doctor` should answer at once; a healthy endpoint lists its models well within this. */
export const DOCTOR_TIMEOUT_MS = 5_000;

function keyCheck(o: ResolvedOptions): DoctorCheck {
  if (!o.apiKey) {
    return {
      name: 'api key',
      status: 'error',
      message: `${o.apiKeyEnv} is not set: ${o.baseURL} needs a key`,
      fix: `export ${o.apiKeyEnv}=<your key>, or point the fixer option "baseURL" at a local server`,
    };
  }
  if (o.apiKey.placeholder) {
    return {
      name: 'api key',
      status: 'ok',
      message: `no key set: none needed for ${o.baseURL} (set ${o.apiKeyEnv} if the server wants one)`,
    };
  }
  return { name: 'api key', status: 'ok', message: `key set (from ${o.apiKey.source})` };
}

function failureFix(error: unknown, o: ResolvedOptions): string {
  if (error instanceof AuthenticationError) return `set ${o.apiKeyEnv} to a valid key`;
  if (error instanceof APIConnectionError)
    return o.openAIHost
      ? 'check the network and any proxy'
      : `start the server at ${o.baseURL}, or fix the fixer option "baseURL"`;
  return `check the fixer option "baseURL" (${o.baseURL})`;
}

/**
 * Is a key set, and does the endpoint answer a models list (which costs no tokens)? One short
 * request, no retries: `doctor` reports, it does not wait out an outage.
 */
export async function doctorChecks(o: ResolvedOptions): Promise<DoctorCheck[]> {
  const checks = [keyCheck(o)];
  if (!o.apiKey)
    return [
      ...checks,
      { name: 'endpoint', status: 'warn', message: `${o.baseURL} not checked: no key to call it with` },
    ];
  const client = createClient({
    baseURL: o.baseURL,
    apiKey: o.apiKey.value,
    timeoutMs: DOCTOR_TIMEOUT_MS,
    retries: 0,
  });
  let ids: string[];
  try {
    ids = (await client.models.list({ timeout: DOCTOR_TIMEOUT_MS, maxRetries: 0 })).data.map((m) => m.id);
  } catch (error) {
    const message = o.redact(
      describeFailure(error, { ...o, path: '/models', retries: 0, timeoutMs: DOCTOR_TIMEOUT_MS }),
    );
    // A server without a models list can still serve chat completions.
    const status = error instanceof NotFoundError ? 'warn' : 'error';
    return [...checks, { name: 'endpoint', status, message, fix: failureFix(error, o) }];
  }
  checks.push({
    name: 'endpoint',
    status: 'ok',
    message: `${o.baseURL} answers: ${ids.length} model(s) listed`,
  });
  const served = ids.some((id) => id === o.model || id === `${o.model}:latest`);
  checks.push(
    served
      ? {
          name: 'model',
          status: 'ok',
          message: `"${o.model}" is served (${o.api === 'chat' ? 'Chat Completions' : 'Responses API'})`,
        }
      : {
          name: 'model',
          status: 'warn',
          message: `${o.baseURL} does not list the model "${o.model}"`,
          fix: o.openAIHost
            ? 'check the fixer option "model"'
            : `check the fixer option "model" (for Ollama: \`ollama pull ${o.model}\`)`,
        },
  );
  return checks;
}
