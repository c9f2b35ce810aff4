import { HOME_PRIVATE_PATHS, KEY_FROM_OPTION } from '@suture/core/llm';
import { DEFAULT_KEY_ENV, type ResolvedOptions } from '../options.js';

/**
 * The tools claude may use with `tools: "read"`: reading and searching the project. Edit, Write,
 * Bash and the rest are not even offered (`--tools`), because the engine is the only writer of
 * project files.
 */
export const READ_ONLY_TOOLS = ['Read', 'Grep', 'Glob'] as const;

export interface CallArgs {
  /** JSON Schema of the answer (`--json-schema`). */
  schema: Record<string, unknown>;
  /** claude's whole system prompt (`--system-prompt`): suture's, not the coding agent's. */
  systemPrompt: string;
  /** Session of an earlier call on the same failure group, to continue it. */
  resume?: string;
  /** Globs relative to the project root that claude's tools may not read (FixerContext.privatePaths). */
  privatePaths?: readonly string[];
}

type ArgOptions = Pick<
  ResolvedOptions,
  'model' | 'maxTurns' | 'maxBudgetUsd' | 'bare' | 'resume' | 'tools' | 'answerRetries'
>;

/**
 * Claude Code's permission settings for one call: every private path denied to Read (which Grep
 * and Glob honour too: a denied file is not searched), and the home's credential files too (a deny
 * rule wins over an allow rule of the user's own settings that would open the home), and nothing
 * allowed beyond what the permission mode allows inside the working directory.
 */
export function permissionSettings(privatePaths: readonly string[]): { permissions: { deny: string[] } } {
  const deny = [
    ...privatePaths.map((glob) => `Read(./${glob.replace(/^\.\//, '')})`),
    ...HOME_PRIVATE_PATHS.map((glob) => `Read(~/${glob})`),
  ];
  return { permissions: { deny } };
}

/**
 * The argument list of one headless call. The prompt is not in it: it goes to stdin, so a long
 * prompt never meets the argument-length limit and never shows in `ps`. Containment: no tool at
 * all by default; with `tools: "read"`, Read, Grep and Glob under the `dontAsk` permission mode
 * (nothing outside the project, which would need a permission, is read), the private paths
 * denied, and only the user's own settings loaded (a project's `.claude/settings.json`, which the
 * project under test controls, could allow more).
 */
export function buildCliArgs(options: ArgOptions, call: CallArgs): string[] {
  const reads = options.tools === 'read';
  const args = [
    '-p',
    '--output-format',
    'json',
    '--json-schema',
    JSON.stringify(call.schema),
    '--tools',
    reads ? READ_ONLY_TOOLS.join(',') : '',
    // MCP servers from the user's or the project's config could bring tools that write.
    '--strict-mcp-config',
    '--setting-sources',
    'user',
    '--permission-mode',
    'dontAsk',
    '--settings',
    JSON.stringify(permissionSettings(call.privatePaths ?? [])),
    // Without tools, a turn is a request: one, plus claude's own re-asks of an answer that fails the schema.
    '--max-turns',
    String(reads ? options.maxTurns : 1 + options.answerRetries),
    '--system-prompt',
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
 * suture has its own timeout), no auto-update in the middle of a run and no non-essential calls
 * (the session title would cost a second call with the whole prompt), then the `env` option, then
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
    // No session title call (it re-sends the whole prompt), telemetry or update checks.
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
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
