import { z } from 'zod';
import { createRedactor, type Redactor } from '../safety/redact.js';
import { resolveApiKey, type ApiKey } from './api-key.js';
import { CassetteOptionSchema, resolveCassette, type Cassette } from './cassette.js';
import { PromptOverridesSchema } from './options.js';
import { PriceTableSchema, type PriceTable } from './pricing.js';
import { loadPromptTemplates, type PromptTemplates } from './prompt.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A zod string that is an environment variable name. */
export const EnvNameSchema = z.string().regex(ENV_NAME, 'an environment variable name');

/**
 * The options every LLM fixer takes. A fixer package extends it with its transport's own
 * (`LlmOptionsSchema.extend({...}).strict()`), and may re-describe a key for its transport.
 * `apiKeyEnv` and `maxOutputTokens` default per fixer, in `resolveLlmSettings`.
 */
export const LlmOptionsSchema = z.object({
  model: z.string().min(1).optional().describe('Model name (default: the fixer chooses)'),
  timeoutMs: z
    .number()
    .int()
    .positive()
    .default(180_000)
    .describe(
      'Wall-clock limit of one call to the model, reply and retries included (a call that runs it out opens the circuit breaker)',
    ),
  retries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(2)
    .describe('Retries on 408, 409, 429, 5xx, timeouts and connection errors'),
  maxOutputTokens: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Output token limit of one call (reasoning included)'),
  apiKey: z
    .string()
    .min(1)
    .optional()
    .describe('API key; prefer the environment (apiKeyEnv). Masked in everything sent and reported'),
  apiKeyEnv: EnvNameSchema.optional().describe('Environment variable holding the API key'),
  prices: PriceTableSchema.optional().describe(
    "USD per million tokens by model name or prefix, merged over the fixer's defaults",
  ),
  prompts: PromptOverridesSchema.optional(),
  answerRetries: z
    .number()
    .int()
    .min(0)
    .max(3)
    .default(1)
    .describe(
      'Times an answer that fails the proposal schema is sent back to the model within one attempt (each is a call, counted in the usage)',
    ),
  circuitBreaker: z
    .number()
    .int()
    .min(0)
    .default(2)
    .describe(
      'Calls in a row without a reply (connection refused, 5xx or 429 after the retries, timeout, rejected key) after which this fixer is skipped for the rest of the run; 0 never',
    ),
  cassette: CassetteOptionSchema.optional(),
});
export type LlmOptions = z.infer<typeof LlmOptionsSchema>;

/** What an LLM fixer settles from its common options at load, before any call. */
export interface LlmSettings {
  /** As configured; undefined leaves the choice to the transport. */
  model: string | undefined;
  timeoutMs: number;
  retries: number;
  maxOutputTokens: number;
  apiKeyEnv: string;
  /** The configured key, undefined when neither `apiKey` nor the variable is set. */
  apiKey: ApiKey | undefined;
  prices: PriceTable;
  templates: PromptTemplates;
  /** Masks the environment's secrets and the fixer's key in what it sends, throws and returns. */
  redact: Redactor;
  answerRetries: number;
  circuitBreaker: number;
  /** Where answers are recorded and replayed, when the option is set. */
  cassette: Cassette | undefined;
}

export interface LlmSettingsContext {
  /** Folder of the config file: `prompts` paths are relative to it. */
  configDir: string;
  /** Where the key and the secrets to mask are read from. */
  env: NodeJS.ProcessEnv;
  /** The fixer's own defaults. */
  defaults: { apiKeyEnv: string; maxOutputTokens: number; prices?: PriceTable | undefined };
  /** Variables the fixer adds to a child's environment: their secrets are masked too. */
  extraEnv?: Record<string, string | undefined>;
}

/**
 * Settles the common options: the key (never logged), the price table (configured entries over
 * the fixer's defaults), the prompt templates (a bad path fails here, at load, not in the middle
 * of a run) and the redactor.
 */
export function resolveLlmSettings(options: LlmOptions, context: LlmSettingsContext): LlmSettings {
  const { defaults } = context;
  const apiKeyEnv = options.apiKeyEnv ?? defaults.apiKeyEnv;
  const apiKey = resolveApiKey({ apiKey: options.apiKey, apiKeyEnv }, context.env);
  const env: NodeJS.ProcessEnv = { ...context.env };
  for (const [name, value] of Object.entries(context.extraEnv ?? {}))
    if (value !== undefined) env[name] = value;
  return {
    model: options.model,
    timeoutMs: options.timeoutMs,
    retries: options.retries,
    maxOutputTokens: options.maxOutputTokens ?? defaults.maxOutputTokens,
    apiKeyEnv,
    apiKey,
    prices: { ...defaults.prices, ...options.prices },
    templates: loadPromptTemplates(options.prompts ?? {}, context.configDir),
    redact: createRedactor(env, apiKey ? [apiKey.value] : []),
    answerRetries: options.answerRetries,
    circuitBreaker: options.circuitBreaker,
    cassette: resolveCassette(options.cassette, context.configDir, context.env),
  };
}
