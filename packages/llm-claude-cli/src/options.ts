import { isAbsolute, resolve } from 'node:path';
import {
  loadPromptTemplates,
  PriceTableSchema,
  PromptOverridesSchema,
  type PriceTable,
  type PromptTemplates,
} from '@suture/core/llm';
import { z } from '@suture/core';
import { CLAUDE_PRICES } from './prices.js';

/** Model of API mode when none is configured (CLI mode leaves the choice to the user's `claude`). */
export const DEFAULT_API_MODEL = 'claude-sonnet-4-6';

/** Claude Code's model aliases: they mean something to `claude --model`, not to the Messages API. */
const CLI_ALIASES = ['sonnet', 'opus', 'haiku', 'fable', 'mythos', 'default', 'opusplan'];

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export const ClaudeOptionsSchema = z
  .object({
    mode: z
      .enum(['cli', 'api'])
      .default('cli')
      .describe(
        'cli: the installed `claude` in headless mode (a subscription login or a key); api: the Anthropic Messages API through @anthropic-ai/sdk',
      ),
    model: z
      .string()
      .min(1)
      .optional()
      .describe(
        `Model: an alias such as "sonnet" or a full name in cli mode (default: claude's own); a full name in api mode (default "${DEFAULT_API_MODEL}")`,
      ),
    command: z
      .string()
      .min(1)
      .default('claude')
      .describe(
        'cli mode: the claude executable, a name looked up on PATH or a path relative to the config file',
      ),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .default(180_000)
      .describe('Wall-clock limit of one call (the claude process, or one HTTP request in api mode)'),
    timeoutRetries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(3)
      .describe('cli mode: times a timed-out call is started again before the attempt is given up'),
    retries: z
      .number()
      .int()
      .min(0)
      .max(10)
      .default(2)
      .describe(
        'Retries on 429, 5xx and connection errors (CLAUDE_CODE_MAX_RETRIES in cli mode, the SDK maxRetries in api mode)',
      ),
    maxTurns: z
      .number()
      .int()
      .positive()
      .default(12)
      .describe('cli mode: agentic turns per call (reading files takes turns; --max-turns)'),
    maxBudgetUsd: z
      .number()
      .positive()
      .optional()
      .describe('cli mode: spending limit of one call in US dollars (--max-budget-usd)'),
    maxOutputTokens: z
      .number()
      .int()
      .positive()
      .default(16_000)
      .describe('api mode: output token limit of one call'),
    resume: z
      .boolean()
      .default(true)
      .describe(
        'Keep one conversation per failure group, so a retry sees what was tried (cli: --resume <session>; api: the message history)',
      ),
    bare: z
      .boolean()
      .default(false)
      .describe(
        'cli mode: run `claude --bare` (no hooks, CLAUDE.md, plugins or OAuth; the key must be in ANTHROPIC_API_KEY)',
      ),
    env: z
      .record(z.string().regex(ENV_NAME, 'an environment variable name'), z.string().nullable())
      .default({})
      .describe(
        'cli mode: environment variables for claude (null removes one), e.g. { "ANTHROPIC_BASE_URL": "http://127.0.0.1:8080" }',
      ),
    baseURL: z
      .string()
      .url()
      .optional()
      .describe(
        'API root (default: $ANTHROPIC_BASE_URL, else Anthropic); passed to claude as ANTHROPIC_BASE_URL in cli mode',
      ),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe('API key; prefer the environment (apiKeyEnv). Masked in everything sent to the model'),
    apiKeyEnv: z
      .string()
      .regex(ENV_NAME, 'an environment variable name')
      .default('ANTHROPIC_API_KEY')
      .describe('Environment variable holding the API key'),
    prices: PriceTableSchema.optional().describe(
      'api mode: USD per million tokens by model name or prefix, merged over the defaults',
    ),
    prompts: PromptOverridesSchema.optional(),
  })
  .strict()
  .superRefine((o, ctx) => {
    if (o.mode === 'api' && o.model && CLI_ALIASES.includes(o.model)) {
      ctx.addIssue({
        code: 'custom',
        path: ['model'],
        message: `"${o.model}" is a Claude Code alias, which the Messages API does not know; in api mode name a model such as "${DEFAULT_API_MODEL}"`,
      });
    }
  });

export type ClaudeOptions = z.input<typeof ClaudeOptionsSchema>;
type Parsed = z.infer<typeof ClaudeOptionsSchema>;

export interface ResolvedOptions extends Omit<Parsed, 'prices' | 'prompts' | 'env' | 'command'> {
  /** The executable as configured: a bare name (looked up on PATH at call time) or an absolute path. */
  command: string;
  /** Variables to set (string) or remove (undefined) in claude's environment. */
  env: Record<string, string | undefined>;
  prices: PriceTable;
  templates: PromptTemplates;
  /** Secrets known from the options, redacted from everything sent. */
  secrets: string[];
}

/**
 * Parses the options (a ZodError names the key) and settles what does not change between calls:
 * the executable path, the environment, prices and prompt templates (a bad template path fails
 * here, at load, not in the middle of a run).
 */
export function resolveOptions(input: unknown, configDir: string): ResolvedOptions {
  const { prices, prompts, env, command, ...o } = ClaudeOptionsSchema.parse(input);
  const childEnv: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) childEnv[name] = value ?? undefined;
  const isPath = command.includes('/') || command.includes('\\');
  return {
    ...o,
    command: isPath && !isAbsolute(command) ? resolve(configDir, command) : command,
    env: childEnv,
    prices: { ...CLAUDE_PRICES, ...prices },
    templates: loadPromptTemplates(prompts ?? {}, configDir),
    secrets: o.apiKey ? [o.apiKey] : [],
  };
}
