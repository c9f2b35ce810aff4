import { KEY_FROM_OPTION } from '@suture/core/llm';
import { DEFAULT_KEY_ENV, type ResolvedOptions } from '../options.js';

/**
 * The tools claude may use: reading and searching the project. Edit, Write, Bash and the rest are
 * not even offered (`--tools`), because the engine is the only writer of project files.
 */
export const READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob'] as const;

export interface CallArgs {
  /** JSON Schema of the answer (`--json-schema`). */
  schema: Record<string, unknown>;
  /** Appended to claude's own system prompt, which keeps its tool instructions. */
  systemPrompt: string;
  /** Session of an earlier call on the same failure group, to continue it. */
  resume?: string;
}

type ArgOptions = Pick<ResolvedOptions, 'model' | 'maxTurns' | 'maxBudgetUsd' | 'bare' | 'resume'>;

/**
 * The argument list of one headless call. The prompt is not in it: it goes to stdin, so a long
 * prompt never meets the argument-length limit and never shows in `ps`.
 */
export function buildCliArgs(options: ArgOptions, call: CallArgs): string[] {
  const tools = READ_ONLY_TOOLS.join(',');
  const args = [
    '-p',
    '--output-format',
    'json',
    '--json-schema',
    JSON.stringify(call.schema),
    '--tools',
    tools,
    '--allowedTools',
    tools,
    // MCP servers from the user's or the project's config could bring tools that write.
    '--strict-mcp-config',
    '--max-turns',
    String(options.maxTurns),
    '--append-system-prompt',
    call.systemPrompt,
  ];
  if (options.model) args.push('--model', options.model);
  if (options.maxBudgetUsd !== undefined) args.push('--max-budget-usd', String(options.maxBudgetUsd));
  if (options.bare) args.push('--bare');
  if (call.resume) args.push('--resume', call.resume);
  else if (!options.resume) args.push('--no-session-persistence');
  return args;
}

/** Keys that make claude use a key or token instead of a login; `claude --bare` needs one of them. */
export const AUTH_ENV = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'] as const;

type EnvOptions = Pick<ResolvedOptions, 'env' | 'retries' | 'baseURL' | 'apiKey' | 'apiKeyEnv'>;

/**
 * claude's environment: the user's, with few retries (claude retries for minutes by default, and
 * suture has its own timeout), no auto-update in the middle of a run, then the `env` option, then
 * the key and base URL options.
 */
export function buildCliEnv(
  options: EnvOptions,
  base: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const env: Record<string, string | undefined> = {
    ...base,
    CLAUDE_CODE_MAX_RETRIES: String(options.retries),
    DISABLE_AUTOUPDATER: '1',
  };
  Object.assign(env, options.env);
  // The dedicated options win over the same variables in `env`: they are the documented way.
  const key =
    options.apiKey?.source === KEY_FROM_OPTION
      ? options.apiKey.value
      : options.apiKeyEnv !== DEFAULT_KEY_ENV
        ? base[options.apiKeyEnv]
        : undefined;
  if (key) env.ANTHROPIC_API_KEY = key;
  if (options.baseURL) env.ANTHROPIC_BASE_URL = options.baseURL;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}
