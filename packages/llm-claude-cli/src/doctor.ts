import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { findPrice } from '@suture/core/llm';
import { runProcess, z, type DoctorCheck } from '@suture/core';
import { AUTH_ENV, buildCliEnv } from './cli/args.js';
import { findExecutable, INSTALL_HINT } from './cli/which.js';
import { DEFAULT_API_MODEL, DEFAULT_KEY_ENV, TOKEN_SOURCE, type ResolvedOptions } from './options.js';
import { probeEndpoint, type ProbeTarget } from './probe.js';

const LOGIN_FIX = 'run `claude /login` (or `claude setup-token` for CI), or set ANTHROPIC_API_KEY';
const PROBE_MS = 20_000;

const AuthStatusSchema = z.object({
  loggedIn: z.boolean(),
  authMethod: z.string().optional(),
  apiKeySource: z.string().optional(),
});

/** Where claude keeps its login on Linux and Windows (macOS uses the Keychain). */
function credentialsFile(env: Record<string, string>): string {
  return join(env.CLAUDE_CONFIG_DIR ?? join(env.HOME ?? homedir(), '.claude'), '.credentials.json');
}

/** The login check without `claude auth status`: the variables and the credentials file claude reads. */
async function guessLogin(env: Record<string, string>, bare: boolean): Promise<DoctorCheck> {
  const keys = bare ? ['ANTHROPIC_API_KEY'] : AUTH_ENV;
  const set = keys.find((k) => env[k]);
  if (set) return { name: 'claude login', status: 'ok', message: `credentials from $${set}` };
  if (!bare && (await stat(credentialsFile(env)).catch(() => undefined))) {
    return { name: 'claude login', status: 'ok', message: `logged in (${credentialsFile(env)})` };
  }
  return {
    name: 'claude login',
    status: process.platform === 'darwin' && !bare ? 'warn' : 'error',
    message: bare
      ? 'claude --bare needs ANTHROPIC_API_KEY, which is not set'
      : 'no login found and no key set',
    fix: bare ? 'set ANTHROPIC_API_KEY' : LOGIN_FIX,
  };
}

async function cliChecks(options: ResolvedOptions): Promise<DoctorCheck[]> {
  const env = buildCliEnv(options);
  const executable = await findExecutable(options.command, env);
  if (!executable) {
    return [
      {
        name: 'claude',
        status: 'error',
        message: `${options.command} not found${options.command.includes('/') ? '' : ' on PATH'}`,
        fix: INSTALL_HINT,
      },
    ];
  }
  const cwd = process.cwd();
  const version = await runProcess(executable, ['--version'], { cwd, env, timeoutMs: PROBE_MS });
  if (version.exitCode !== 0) {
    return [
      {
        name: 'claude',
        status: 'error',
        message: `${executable} --version failed: ${version.output.trim().slice(0, 200) || `exit code ${version.exitCode}`}`,
        fix: INSTALL_HINT,
      },
    ];
  }
  const checks: DoctorCheck[] = [
    { name: 'claude', status: 'ok', message: `${version.output.trim()} at ${executable}` },
  ];

  // `claude auth status` reads the local login without sending anything to the model.
  const status = await runProcess(executable, ['auth', 'status'], { cwd, env, timeoutMs: PROBE_MS });
  let auth: z.infer<typeof AuthStatusSchema> | undefined;
  try {
    const json = status.output.slice(status.output.indexOf('{'), status.output.lastIndexOf('}') + 1);
    auth = AuthStatusSchema.parse(JSON.parse(json));
  } catch {
    auth = undefined;
  }
  if (!auth || options.bare) checks.push(await guessLogin(env, options.bare));
  else if (auth.loggedIn) {
    checks.push({
      name: 'claude login',
      status: 'ok',
      message: `logged in (${auth.authMethod ?? 'unknown method'}${auth.apiKeySource ? ` from $${auth.apiKeySource}` : ''})`,
    });
  } else
    checks.push({
      name: 'claude login',
      status: 'error',
      message: 'claude is not logged in and no key is set',
      fix: LOGIN_FIX,
    });
  checks.push(await probeEndpoint(cliTarget(options, env)));
  return checks;
}

/** The endpoint and the credential claude will use, read from the environment it gets. */
function cliTarget(options: ResolvedOptions, env: Record<string, string>): ProbeTarget {
  const urlSource = options.baseURL
    ? 'the fixer option "baseURL"'
    : env.ANTHROPIC_BASE_URL
      ? 'ANTHROPIC_BASE_URL'
      : 'the network or proxy';
  const baseURL = env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  const key = env.ANTHROPIC_API_KEY
    ? { value: env.ANTHROPIC_API_KEY, bearer: false, source: `$${DEFAULT_KEY_ENV}` }
    : env.ANTHROPIC_AUTH_TOKEN
      ? { value: env.ANTHROPIC_AUTH_TOKEN, bearer: true, source: '$ANTHROPIC_AUTH_TOKEN' }
      : undefined;
  return { baseURL, key, urlSource };
}

async function apiChecks(options: ResolvedOptions): Promise<DoctorCheck[]> {
  const credentials = options.apiKey;
  const model = options.model ?? DEFAULT_API_MODEL;
  const price = findPrice(options.prices, model);
  const baseURL = options.baseURL ?? process.env.ANTHROPIC_BASE_URL ?? 'https://api.anthropic.com';
  const endpoint: DoctorCheck = credentials
    ? await probeEndpoint({
        baseURL,
        key: {
          value: credentials.value,
          bearer: credentials.source === TOKEN_SOURCE,
          source: credentials.source,
        },
        urlSource: options.baseURL ? 'the fixer option "baseURL"' : 'ANTHROPIC_BASE_URL',
      })
    : { name: 'endpoint', status: 'warn', message: `${baseURL} not checked: no key to call it with` };
  return [
    credentials
      ? { name: 'anthropic key', status: 'ok', message: `key from ${credentials.source}` }
      : {
          name: 'anthropic key',
          status: 'error',
          message: `no Anthropic API key (${options.apiKeyEnv} and ANTHROPIC_AUTH_TOKEN are unset)`,
          fix: `set ${options.apiKeyEnv}, or use mode "cli" with a logged-in claude`,
        },
    price
      ? {
          name: 'model price',
          status: 'ok',
          message: `${model}: $${price.input} in / $${price.output} out per million tokens`,
        }
      : {
          name: 'model price',
          status: 'warn',
          message: `no price for ${model}: its cost will show as 0`,
          fix: `add "${model}" to the fixer option "prices"`,
        },
    endpoint,
  ];
}

/**
 * What `suture doctor` shows for this fixer: the binary and the login (cli mode), the key and
 * the price (api mode), and whether the endpoint answers and takes the key. Never sends a
 * prompt, so it costs nothing.
 */
export async function doctor(options: ResolvedOptions): Promise<DoctorCheck[]> {
  return options.mode === 'api' ? apiChecks(options) : cliChecks(options);
}
