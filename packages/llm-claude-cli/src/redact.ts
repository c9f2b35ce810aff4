import { createRedactor, type Redactor } from '@suture/core/llm';
import type { ResolvedOptions } from './options.js';

/**
 * Masks the secrets of the user's environment, of the `env` option and the configured key. The
 * engine already masks the request; this covers what the fixer adds (templates, the system
 * prompt) and keys that only this fixer knows.
 */
export function redactorFor(
  options: Pick<ResolvedOptions, 'env' | 'secrets'>,
  base: NodeJS.ProcessEnv = process.env,
): Redactor {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
  return createRedactor(env, options.secrets);
}
