import {
  loadPromptTemplates,
  PriceTableSchema,
  PromptOverridesSchema,
  type PriceTable,
  type PromptTemplates,
} from '@suture/core/llm';
import { z } from '@suture/core';
import { baseURLProblem, isOpenAIHost, normalizeBaseURL, OPENAI_BASE_URL } from './endpoint.js';
import { priceTableFor } from './prices.js';

export const DEFAULT_MODEL = 'gpt-5-mini';

export const OpenAIOptionsSchema = z
  .object({
    model: z
      .string()
      .min(1)
      .optional()
      .describe(`Model name (default "${DEFAULT_MODEL}" on OpenAI; required with another baseURL)`),
    api: z
      .enum(['chat', 'responses'])
      .default('chat')
      .describe(
        'chat: Chat Completions, spoken by OpenAI and every compatible server; responses: the Responses API (OpenAI)',
      ),
    baseURL: z
      .string()
      .min(1)
      .optional()
      .describe(
        'API root ending in /v1, e.g. http://127.0.0.1:11434/v1 for Ollama (default: $OPENAI_BASE_URL, else OpenAI)',
      ),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe('API key; prefer the environment (apiKeyEnv). Never written to reports'),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'an environment variable name')
      .default('OPENAI_API_KEY')
      .describe('Environment variable holding the API key'),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .optional()
      .describe('Sampling temperature (not sent unless set; reasoning models refuse it)'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .default(180_000)
      .describe('Limit of one HTTP request, reply included'),
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
      .default(16_384)
      .describe('Output token limit of one attempt (reasoning included)'),
    prices: PriceTableSchema.optional().describe(
      'USD per million tokens by model name or prefix; merged over the OpenAI defaults',
    ),
    prompts: PromptOverridesSchema.optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.baseURL === undefined) return;
    const problem = baseURLProblem(o.baseURL);
    if (problem) ctx.addIssue({ code: 'custom', path: ['baseURL'], message: problem });
    else if (!o.model && !isOpenAIHost(o.baseURL)) {
      ctx.addIssue({
        code: 'custom',
        path: ['model'],
        message: `required with baseURL ${o.baseURL}: name a model the server serves, e.g. "qwen2.5-coder" for Ollama`,
      });
    }
  });

export type OpenAIOptions = z.input<typeof OpenAIOptionsSchema>;

export interface ApiKey {
  value: string;
  /** Where it came from, for messages: `$OPENAI_API_KEY`, `the apiKey option`, or a placeholder. */
  source: string;
  /** A stand-in for a local server that needs no key (the SDK refuses to start without one). */
  placeholder: boolean;
}

export interface ResolvedOptions {
  model: string;
  api: 'chat' | 'responses';
  /** Without trailing slashes. */
  baseURL: string;
  /** OpenAI itself rather than a compatible server. */
  openAIHost: boolean;
  /** Undefined when no key is set and one is needed (OpenAI): a call then says which variable to set. */
  apiKey: ApiKey | undefined;
  apiKeyEnv: string;
  temperature: number | undefined;
  timeoutMs: number;
  retries: number;
  maxOutputTokens: number;
  prices: PriceTable;
  templates: PromptTemplates;
}

/** Placeholder sent as the key to servers that ignore it (Ollama, LM Studio, vLLM without --api-key). */
export const NO_KEY = 'no-key';

export interface ResolveContext {
  /** Folder of the config file: `prompts` paths are relative to it. */
  configDir: string;
  env: NodeJS.ProcessEnv;
}

function baseURLFromEnv(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.OPENAI_BASE_URL?.trim();
  if (!value) return undefined;
  const problem = baseURLProblem(value);
  if (problem)
    throw new Error(
      `the environment variable OPENAI_BASE_URL=${problem}; fix it or set the fixer option "baseURL"`,
    );
  return value;
}

/**
 * Parses the options (a ZodError names the key) and settles everything that does not change
 * between calls: endpoint, key, prices, prompt templates.
 */
export function resolveOptions(input: unknown, context: ResolveContext): ResolvedOptions {
  const o = OpenAIOptionsSchema.parse(input);
  const fromEnv = o.baseURL ? undefined : baseURLFromEnv(context.env);
  const baseURL = normalizeBaseURL(o.baseURL ?? fromEnv ?? OPENAI_BASE_URL);
  const openAIHost = isOpenAIHost(baseURL);
  if (!o.model && !openAIHost) {
    throw new Error(
      `the fixer option "model" is required with OPENAI_BASE_URL=${baseURL}: name a model the server serves, e.g. "qwen2.5-coder" for Ollama`,
    );
  }
  const envKey = context.env[o.apiKeyEnv]?.trim();
  const apiKey: ApiKey | undefined = o.apiKey
    ? { value: o.apiKey, source: 'the apiKey option', placeholder: false }
    : envKey
      ? { value: envKey, source: `$${o.apiKeyEnv}`, placeholder: false }
      : openAIHost
        ? undefined
        : { value: NO_KEY, source: 'none (a local server needs none)', placeholder: true };
  return {
    model: o.model ?? DEFAULT_MODEL,
    api: o.api,
    baseURL,
    openAIHost,
    apiKey,
    apiKeyEnv: o.apiKeyEnv,
    temperature: o.temperature,
    timeoutMs: o.timeoutMs,
    retries: o.retries,
    maxOutputTokens: o.maxOutputTokens,
    prices: priceTableFor(openAIHost, o.prices),
    templates: loadPromptTemplates(o.prompts ?? {}, context.configDir),
  };
}
