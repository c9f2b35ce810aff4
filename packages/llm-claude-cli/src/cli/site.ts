import { KEY_FROM_OPTION, keyFix, type ApiKey, type CallSite } from '@suture/core/llm';
import { DEFAULT_KEY_ENV, type ResolvedOptions } from '../options.js';

export const LOGIN_FIX = 'run `claude /login` (or `claude setup-token` for CI) or set ANTHROPIC_API_KEY';

/** What claude authenticates with: the key it was given, or its own login. */
function credentials(
  options: Pick<ResolvedOptions, 'apiKey' | 'apiKeyEnv'>,
  env: Record<string, string>,
): ApiKey {
  if (options.apiKey?.source === KEY_FROM_OPTION) return options.apiKey;
  if (!env.ANTHROPIC_API_KEY) return { value: '', source: "claude's login", placeholder: false };
  const named = options.apiKeyEnv !== DEFAULT_KEY_ENV && env[options.apiKeyEnv];
  return { value: '', source: `$${named ? options.apiKeyEnv : DEFAULT_KEY_ENV}`, placeholder: false };
}

/**
 * The API claude calls, as the reasons of a failed call name it: its base URL comes from claude's
 * environment, and the model from what the call reported when it got that far.
 */
export function cliSite(
  options: Pick<ResolvedOptions, 'apiKey' | 'apiKeyEnv' | 'model' | 'retries' | 'timeoutMs'>,
  env: Record<string, string>,
  model = options.model,
): CallSite {
  const key = credentials(options, env);
  const endpoint = env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  return {
    endpoint,
    path: '/v1/messages',
    model: model ?? "claude's default model",
    retries: options.retries,
    timeoutMs: options.timeoutMs,
    key,
    keyFix: key.source === "claude's login" ? LOGIN_FIX : keyFix(key, options.apiKeyEnv, DEFAULT_KEY_ENV),
    selfHosted: !endpoint.startsWith('https://api.anthropic.com'),
  };
}
