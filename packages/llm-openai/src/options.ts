import { LlmOptionsSchema, resolveLlmSettings, type ApiKey, type LlmSettings } from '@suture/core/llm';
import { z } from '@suture/core';
import { baseURLProblem, isOpenAIHost, normalizeBaseURL, OPENAI_BASE_URL } from './endpoint.js';
import { OPENAI_PRICES } from './prices.js';

export const DEFAULT_MODEL = 'gpt-5-mini';

export const OpenAIOptionsSchema = LlmOptionsSchema.extend({
  model: LlmOptionsSchema.shape.model.describe(
    `Model name (default "${DEFAULT_MODEL}" on OpenAI; required with another baseURL)`,
  ),
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
  temperature: z
    .number()
    .min(0)
    .max(2)
    .optional()
    .describe('Sampling temperature (not sent unless set; reasoning models refuse it)'),
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

export const DEFAULT_KEY_ENV = 'OPENAI_API_KEY';

export interface ResolvedOptions extends LlmSettings {
  model: string;
  api: 'chat' | 'responses';
  /** Without trailing slashes. */
  baseURL: string;
  /** OpenAI itself rather than a compatible server. */
  openAIHost: boolean;
  /** Undefined when no key is set and one is needed (OpenAI): a call then says which variable to set. */
  apiKey: ApiKey | undefined;
  temperature: number | undefined;
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
 * between calls: endpoint, key, prices (OpenAI's only on OpenAI: a local server costs nothing
 * unless told), prompt templates.
 */
export function resolveOptions(input: unknown, context: ResolveContext): ResolvedOptions {
  const { api, baseURL: configured, temperature, ...common } = OpenAIOptionsSchema.parse(input);
  const baseURL = normalizeBaseURL(configured ?? baseURLFromEnv(context.env) ?? OPENAI_BASE_URL);
  const openAIHost = isOpenAIHost(baseURL);
  if (!common.model && !openAIHost) {
    throw new Error(
      `the fixer option "model" is required with OPENAI_BASE_URL=${baseURL}: name a model the server serves, e.g. "qwen2.5-coder" for Ollama`,
    );
  }
  const settings = resolveLlmSettings(common, {
    ...context,
    defaults: {
      apiKeyEnv: DEFAULT_KEY_ENV,
      maxOutputTokens: 16_384,
      prices: openAIHost ? OPENAI_PRICES : undefined,
    },
  });
  const placeholder = { value: NO_KEY, source: 'none (a local server needs none)', placeholder: true };
  return {
    ...settings,
    model: common.model ?? DEFAULT_MODEL,
    api,
    baseURL,
    openAIHost,
    apiKey: settings.apiKey ?? (openAIHost ? undefined : placeholder),
    temperature,
  };
}
