import { secretValues } from '../redact.js';
import { isSecretEnvName } from '../secret-names.js';

/** What every process needs to find its tools, its home and its locale. */
const BASE = new Set(['PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'TZ', 'LANG', 'LANGUAGE', 'CI']);
const BASE_PREFIXES = ['LC_'];

/**
 * Variables toolchains read to find interpreters, compilers and libraries, none of them secret:
 * a suite that builds or imports the way it does outside suture needs them.
 */
const TOOLCHAIN = new Set([
  'PYTHONPATH',
  'PYTHONHOME',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONHASHSEED',
  'VIRTUAL_ENV',
  'CONDA_PREFIX',
  'CONDA_DEFAULT_ENV',
  'NODE_PATH',
  'NODE_ENV',
  'JAVA_HOME',
  'GOPATH',
  'GOROOT',
  'GOMODCACHE',
  'GOCACHE',
  'GOFLAGS',
  'GOENV',
  'GOTOOLCHAIN',
  'CARGO_HOME',
  'CARGO_TARGET_DIR',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTFLAGS',
  'NVM_DIR',
  'VOLTA_HOME',
  'RBENV_ROOT',
  'PYTHONUSERBASE',
  'GIT_CONFIG_GLOBAL',
  'CC',
  'CXX',
  'CPP',
  'LD',
  'AR',
  'CFLAGS',
  'CXXFLAGS',
  'CPPFLAGS',
  'LDFLAGS',
  'LD_LIBRARY_PATH',
  'LIBRARY_PATH',
  'CPATH',
  'C_INCLUDE_PATH',
  'CPLUS_INCLUDE_PATH',
  'PKG_CONFIG_PATH',
  'MAKEFLAGS',
  'SOURCE_DATE_EPOCH',
]);
const TOOLCHAIN_PREFIXES = ['PYENV_', 'CMAKE_', 'CTEST_', 'GTEST_', 'PYTEST_', 'NINJA_'];

/** Settings of the LLM services the fixers call: the code under test has no use for any of them. */
const LLM_PREFIXES = [
  'ANTHROPIC_',
  'OPENAI_',
  'CLAUDE_',
  'AZURE_OPENAI_',
  'GEMINI_',
  'GOOGLE_API',
  'MISTRAL_',
];

/** The names and prefixes the allowlist passes (docs/runner.md lists them; a test keeps the two equal). */
export function allowlist(): { names: string[]; prefixes: string[] } {
  return { names: [...BASE, ...TOOLCHAIN], prefixes: [...BASE_PREFIXES, ...TOOLCHAIN_PREFIXES] };
}

export interface SandboxEnvOptions {
  /** The environment suture itself runs with: what a runner's env shares with it is inherited, not its own. */
  inherited?: NodeJS.ProcessEnv;
  /** Names the config passes in (`sandboxEnv`). */
  extra?: readonly string[];
  /** Extra secret names (the config's `secrets.names`). */
  secretNames?: readonly RegExp[];
  /**
   * The private HOME the runs get instead of the user's, and the toolchain variables pinned to
   * the real home (set where the runner's environment leaves them unset).
   */
  home?: { dir: string; env: Readonly<Record<string, string>> };
}

/** Why a name can never enter the sandbox, or undefined. */
export function barredFromSandbox(name: string, secretNames: readonly RegExp[] = []): string | undefined {
  const upper = name.toUpperCase();
  if (LLM_PREFIXES.some((p) => upper.startsWith(p))) return 'it configures an LLM service';
  if (isSecretEnvName(name, secretNames)) return 'its name marks a secret';
  return undefined;
}

function allowedByName(name: string, extra: ReadonlySet<string>): boolean {
  return (
    BASE.has(name) ||
    BASE_PREFIXES.some((p) => name.startsWith(p)) ||
    TOOLCHAIN.has(name) ||
    TOOLCHAIN_PREFIXES.some((p) => name.startsWith(p)) ||
    extra.has(name)
  );
}

/**
 * The environment a sandboxed process gets: an allowlist instead of suture's whole environment.
 * Kept: PATH, the locale and the toolchains' own variables, the names the config adds, and what
 * the runner set itself (a name suture's environment lacks or holds with another value). HOME is
 * the private one when given (a runner's own HOME too: no tested code sees the user's home).
 * Never: LLM settings, secret-named variables, or any variable whose value holds the value of a
 * secret-named one (a key copied under an innocent name).
 */
export function sandboxEnv(
  env: Readonly<Record<string, string | undefined>>,
  options: SandboxEnvOptions = {},
): Record<string, string> {
  const inherited = options.inherited ?? process.env;
  const extra = new Set(options.extra ?? []);
  const secrets = secretValues({ ...inherited, ...env }, options.secretNames ?? []).filter(
    (v) => v.length >= 8,
  );
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (barredFromSandbox(name, options.secretNames)) continue;
    if (secrets.some((s) => value.includes(s))) continue;
    const ownToRunner = inherited[name] !== value;
    if (ownToRunner || allowedByName(name, extra)) out[name] = value;
  }
  if (options.home) {
    for (const [name, value] of Object.entries(options.home.env)) out[name] ??= value;
    out.HOME = options.home.dir;
  }
  return out;
}
