import { callFailureReason, keyFix, sdkCallFailure, type CallFailure, type CallSite } from '@suture/core/llm';
import OpenAI from 'openai';
import { DEFAULT_KEY_ENV, type ResolvedOptions } from './options.js';

/** The options a call was made with, and the path it called (e.g. `/chat/completions`). */
export type CallContext = Pick<
  ResolvedOptions,
  'baseURL' | 'model' | 'apiKey' | 'apiKeyEnv' | 'retries' | 'timeoutMs' | 'openAIHost'
> & { path: string };

/** What to do where OpenAI-compatible servers differ from the uniform advice. */
function hint(f: CallFailure, c: CallContext): string | undefined {
  if (f.kind === 'not-found') {
    const pull = c.openAIHost ? '' : ` (for Ollama: \`ollama pull ${c.model}\`)`;
    return `check the fixer option "model" ("${c.model}")${pull} and that baseURL is the API root ending in /v1`;
  }
  if (f.kind !== 'bad-request') return undefined;
  if (f.param === 'temperature')
    return `the model "${c.model}" does not take a temperature; remove the fixer option "temperature"`;
  if (f.param === 'max_tokens' || f.param === 'max_completion_tokens' || f.param === 'max_output_tokens')
    return `the model "${c.model}" refused the output limit; change the fixer option "maxOutputTokens"`;
  return `the model "${c.model}" may not support strict function calling${c.openAIHost ? '' : ' on this server; try another model'}`;
}

/** Turns whatever the SDK threw into one sentence that says what happened and what to do. */
export function describeFailure(error: unknown, c: CallContext): string {
  const site: CallSite = {
    endpoint: c.baseURL,
    path: c.path,
    model: c.model,
    retries: c.retries,
    timeoutMs: c.timeoutMs,
    key: c.apiKey,
    keyFix: keyFix(c.apiKey, c.apiKeyEnv, DEFAULT_KEY_ENV),
    selfHosted: !c.openAIHost,
  };
  return callFailureReason(sdkCallFailure(error, OpenAI), site, (f) => hint(f, c));
}

/** A call that ran out of `timeoutMs`, which bounds it with its retries (so none is counted). */
export function describeTimeout(c: CallContext): string {
  return describeFailure(new OpenAI.APIConnectionTimeoutError(), { ...c, retries: 0 });
}
