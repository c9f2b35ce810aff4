import { isAbsolute, resolve } from 'node:path';
import { EnvNameSchema, LlmOptionsSchema, resolveLlmSettings, type LlmSettings } from '@suture/core/llm';
import { z } from '@suture/core';
import { CLAUDE_PRICES } from './prices.js';

/** Model of API mode when none is configured (CLI mode leaves the choice to the user's `claude`). */
export const DEFAULT_API_MODEL = 'claude-sonnet-4-6';
export const DEFAULT_KEY_ENV = 'ANTHROPIC_API_KEY';
/** The `source` of a bearer token, which the Messages API takes instead of a key. */
export const TOKEN_SOURCE = '$ANTHROPIC_AUTH_TOKEN';

/** Claude Code's model aliases: they mean something to `claude --model`, not to the Messages API. */
const CLI_ALIASES = ['sonnet', 'opus', 'haiku', 'fable', 'mythos', 'default', 'opusplan'];

export const ClaudeOptionsSchema = LlmOptionsSchema.extend({
  mode: z
    .enum(['cli', 'api'])
    .default('cli')
    .describe(
      'cli: the installed `claude` in headless mode (a subscription login or a key); api: the Anthropic Messages API through @anthropic-ai/sdk',
    ),
  model: LlmOptionsSchema.shape.model.describe(
    `Model: an alias such as "sonnet" or a full name in cli mode (default: claude's own); a full name in api mode (default "${DEFAULT_API_MODEL}")`,
  ),
  command: z
    .string()
    .min(1)
    .default('claude')
    .describe(
      'cli mode: the claude executable, a name looked up on PATH or a path relative to the config file',
    ),
  timeoutRetries: z
    .number()
    .int()
    .min(0)
    .max(10)
    .default(0)
    .describe(
      'cli mode: times a timed-out call is started again before the attempt is given up (each waits timeoutMs again)',
    ),
  tools: z
    .enum(['none', 'read'])
    .default('none')
    .describe(
      "cli mode: none: claude answers from the prompt, which carries the ranked source (fewest tokens); read: claude may also Read, Grep and Glob inside the project, never .env*, keys, certificates, .git, .suture or the config's secrets.files, nor outside the project",
    ),
  retries: LlmOptionsSchema.shape.retries.describe(
    'Retries on 429, 5xx and connection errors (CLAUDE_CODE_MAX_RETRIES in cli mode, the SDK maxRetries in api mode)',
  ),
  maxTurns: z
    .number()
    .int()
    .positive()
    .default(12)
    .describe(
      'cli mode with tools "read": agentic turns per call (reading files takes turns; --max-turns). Without tools a call is 1 + answerRetries turns',
    ),
  maxBudgetUsd: z
    .number()
    .positive()
    .optional()
    .describe('cli mode: spending limit of one call in US dollars (--max-budget-usd)'),
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
    .record(EnvNameSchema, z.string().nullable())
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

export interface ResolvedOptions
  extends
    LlmSettings,
    Pick<
      Parsed,
      'mode' | 'timeoutRetries' | 'maxTurns' | 'maxBudgetUsd' | 'resume' | 'bare' | 'baseURL' | 'tools'
    > {
  /** The executable as configured: a bare name (looked up on PATH at call time) or an absolute path. */
  command: string;
  /** Variables to set (string) or remove (undefined) in claude's environment. */
  env: Record<string, string | undefined>;
}

/**
 * Parses the options (a ZodError names the key) and settles what does not change between calls:
 * the executable path, the environment, the key (api mode also takes a bearer token from
 * ANTHROPIC_AUTH_TOKEN), prices and prompt templates.
 */
export function resolveOptions(
  input: unknown,
  configDir: string,
  processEnv: NodeJS.ProcessEnv = process.env,
): ResolvedOptions {
  const {
    env,
    command,
    mode,
    timeoutRetries,
    maxTurns,
    maxBudgetUsd,
    resume,
    bare,
    baseURL,
    tools,
    ...common
  } = ClaudeOptionsSchema.parse(input);
  const childEnv: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(env)) childEnv[name] = value ?? undefined;
  const isPath = command.includes('/') || command.includes('\\');
  const settings = resolveLlmSettings(common, {
    configDir,
    env: processEnv,
    defaults: { apiKeyEnv: DEFAULT_KEY_ENV, maxOutputTokens: 16_000, prices: CLAUDE_PRICES },
    extraEnv: childEnv,
  });
  const token = processEnv.ANTHROPIC_AUTH_TOKEN?.trim();
  return {
    ...settings,
    apiKey:
      settings.apiKey ?? (token ? { value: token, source: TOKEN_SOURCE, placeholder: false } : undefined),
    mode,
    timeoutRetries,
    maxTurns,
    maxBudgetUsd,
    resume,
    bare,
    baseURL,
    tools,
    command: isPath && !isAbsolute(command) ? resolve(configDir, command) : command,
    env: childEnv,
  };
}
