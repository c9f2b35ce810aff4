import type { ResolvedOptions } from '../options.js';

export interface Credentials {
  apiKey?: string;
  authToken?: string;
  /** For messages: `the apiKey option`, `$ANTHROPIC_API_KEY`, ... */
  source: string;
}

/**
 * The key api mode uses, or undefined. Only the option and the environment count, never the
 * SDK's own lookup of profiles on disk, so doctor and the call agree on what is configured.
 */
export function apiCredentials(
  options: Pick<ResolvedOptions, 'apiKey' | 'apiKeyEnv'>,
  env: NodeJS.ProcessEnv = process.env,
): Credentials | undefined {
  if (options.apiKey) return { apiKey: options.apiKey, source: 'the apiKey option' };
  const key = env[options.apiKeyEnv]?.trim();
  if (key) return { apiKey: key, source: `$${options.apiKeyEnv}` };
  const token = env.ANTHROPIC_AUTH_TOKEN?.trim();
  if (token) return { authToken: token, source: '$ANTHROPIC_AUTH_TOKEN' };
  return undefined;
}
