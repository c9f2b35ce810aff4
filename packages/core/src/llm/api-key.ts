/** An API key as an LLM fixer resolved it. The value is a secret: it never reaches a message. */
export interface ApiKey {
  value: string;
  /** Where it came from, for messages: `the apiKey option`, `$OPENAI_API_KEY`, ... */
  source: string;
  /** A stand-in sent to a server that needs no key (an SDK refuses to start without one). */
  placeholder: boolean;
}

/** The `source` of a key given in the config file. */
export const KEY_FROM_OPTION = 'the apiKey option';

/**
 * The key of the `apiKey` option, else of the variable `apiKeyEnv` names. Only these two count,
 * never an SDK's own lookup of files on disk, so `suture doctor` and the call agree on what is
 * configured.
 */
export function resolveApiKey(
  options: { apiKey?: string | undefined; apiKeyEnv: string },
  env: NodeJS.ProcessEnv,
): ApiKey | undefined {
  if (options.apiKey) return { value: options.apiKey, source: KEY_FROM_OPTION, placeholder: false };
  const value = env[options.apiKeyEnv]?.trim();
  return value ? { value, source: `$${options.apiKeyEnv}`, placeholder: false } : undefined;
}

/**
 * What to do about a key a server refused or wanted. A key in the config file is fixed there, or
 * better moved to the environment; otherwise the variable is named, and the option too when it
 * is not the fixer's usual variable.
 */
export function keyFix(key: ApiKey | undefined, apiKeyEnv: string, defaultKeyEnv: string): string {
  if (key?.source === KEY_FROM_OPTION)
    return `fix the fixer option "apiKey" (better: remove it and set ${apiKeyEnv})`;
  return `set ${apiKeyEnv} to a valid key${apiKeyEnv === defaultKeyEnv ? '' : ' (option "apiKeyEnv")'}`;
}
