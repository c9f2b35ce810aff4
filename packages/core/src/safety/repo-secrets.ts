import { readdir, readFile } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';
import { picomatch } from '../text/glob.js';
import type { SecretsConfig } from '../api/contracts/secrets.js';
import { createRedactor, type Redactor } from './redact.js';
import { isSecretName } from './secret-names.js';
import { sourceLiteralValues } from './source-literals.js';
import { walkFiles } from './walk-files.js';

/**
 * Files a model must never read, relative to a project root: environment files (`.env*`,
 * direnv's `.envrc`), the credential files of package managers, git, netrc, Terraform and cloud
 * tools, keys and certificates, and the folders of git and suture. The config's `secrets.files`
 * come on top; everything outside the project is denied by the fixers themselves.
 */
export const PRIVATE_PATHS: readonly string[] = [
  '.env',
  '.env.*',
  '**/.env',
  '**/.env.*',
  '**/.envrc',
  '**/.npmrc',
  '**/.yarnrc.yml',
  '**/.netrc',
  '**/_netrc',
  '**/.pypirc',
  '**/.pgpass',
  '**/.git-credentials',
  '**/.htpasswd',
  '**/*.tfvars',
  '**/*.tfvars.json',
  '**/credentials',
  '**/credentials*',
  '**/.docker/config.json',
  '**/*.pem',
  '**/*.key',
  '**/id_*',
  '**/*.p12',
  '**/*.pfx',
  '**/*.jks',
  '**/*.keystore',
  '.git/**',
  '**/.git/**',
  '.suture/**',
  '**/.suture/**',
];

/**
 * Where the user's home keeps credentials, relative to it: a fixer that reads files is denied
 * these even when the user's own settings let it read the home.
 */
export const HOME_PRIVATE_PATHS: readonly string[] = [
  '.aws/**',
  '.ssh/**',
  '.gnupg/**',
  '.docker/**',
  '.kube/**',
  '.azure/**',
  '.config/gcloud/**',
  '.config/gh/**',
  '.config/hub',
  '.claude/.credentials.json',
  '.cargo/credentials*',
  '.gem/credentials',
  '.m2/settings*.xml',
  '.gradle/gradle.properties',
  '.terraform.d/**',
  '.netrc',
  '.npmrc',
  '.yarnrc.yml',
  '.pypirc',
  '.pgpass',
  '.git-credentials',
  '.envrc',
  '.env',
];

/** Example files hold placeholders, not secrets. */
const EXAMPLE_ENV = /\.(example|sample|template|dist|defaults?)$/i;

/** `KEY=value`, `export KEY="value"`, `KEY: value` lines of an environment or settings file. */
export function parseKeyValues(text: string): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const raw of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*[=:]\s*(.*?)\s*$/.exec(raw);
    if (!m) continue;
    let value = m[2]!;
    const quoted = /^(["'])(.*)\1$/.exec(value);
    if (quoted) value = quoted[2]!;
    else value = value.replace(/\s+#.*$/, '');
    if (value) pairs.push([m[1]!, value]);
  }
  return pairs;
}

/** Looks random: long, letters and digits, no spaces (an unlabelled token). */
function looksRandom(value: string): boolean {
  return (
    value.length >= 12 && /^[A-Za-z0-9+/=_.~-]+$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value)
  );
}

/**
 * The values of a secrets file worth masking: every value of a secret-looking name (6 characters
 * or more), and values of other names that look like tokens. `DEBUG=true` or `PORT=8080` would
 * blank every "true" and "8080" of a prompt, so those stay.
 */
export function secretValuesOf(
  pairs: ReadonlyArray<[string, string]>,
  names: readonly RegExp[] = [],
): string[] {
  const values = new Set<string>();
  for (const [name, value] of pairs) {
    if ((isSecretName(name, names) && value.length >= 6) || looksRandom(value)) values.add(value);
  }
  return [...values];
}

async function envFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries
    .filter(
      (e) => e.isFile() && (e.name === '.env' || e.name.startsWith('.env.')) && !EXAMPLE_ENV.test(e.name),
    )
    .map((e) => join(dir, e.name));
}

/** Files under `root` matching `globs` (relative to it). */
async function globFiles(root: string, globs: readonly string[]): Promise<string[]> {
  if (globs.length === 0) return [];
  const match = picomatch([...globs], { dot: true });
  return walkFiles(root, (rel) => match(rel));
}

export interface RepositorySecrets {
  /** Where the config is: `secrets.files` are relative to it, and its `.env*` files are read. */
  root: string;
  /** Project roots: their `.env*` files are read too. */
  projectRoots?: readonly string[];
  env?: NodeJS.ProcessEnv;
  secrets?: SecretsConfig | undefined;
}

/**
 * The secret values of the repository's `.env*` files, of the configured secret files and of the
 * literals its projects' sources assign to secret names.
 */
export async function repositorySecretValues(options: RepositorySecrets): Promise<string[]> {
  const names = (options.secrets?.names ?? []).map((n) => new RegExp(n, 'i'));
  const dirs = [...new Set([options.root, ...(options.projectRoots ?? [])])];
  const files = new Set<string>();
  for (const dir of dirs) for (const f of await envFiles(dir)) files.add(f);
  for (const f of await globFiles(options.root, options.secrets?.files ?? [])) files.add(f);
  const values = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const v of secretValuesOf(parseKeyValues(text), names)) values.add(v);
  }
  for (const v of await sourceLiteralValues(options.root, dirs, names)) values.add(v);
  return [...values];
}

/**
 * The run's redactor: the environment's secrets, the repository's (`.env*` values, configured
 * secret files), the configured names and value patterns, and the formats every redactor knows.
 * Applied to prompts, reports, logs and run folders.
 */
export async function repositoryRedactor(options: RepositorySecrets): Promise<Redactor> {
  const values = await repositorySecretValues(options);
  return createRedactor(options.env ?? process.env, values, {
    names: (options.secrets?.names ?? []).map((n) => new RegExp(n, 'i')),
    patterns: (options.secrets?.patterns ?? []).map((p) => new RegExp(p, 'g')),
  });
}

/**
 * The private paths of one project, relative to its root: the built-in ones and the configured
 * `secrets.files` (relative to `root`) that fall inside it.
 */
export function privatePathsOf(
  root: string,
  projectRoot: string,
  secretFiles: readonly string[] = [],
): string[] {
  const prefix = relative(root, projectRoot).split(sep).join(posix.sep);
  const own: string[] = [];
  for (const glob of secretFiles) {
    if (glob.startsWith('**/')) own.push(glob);
    else if (!prefix) own.push(glob);
    else if (glob.startsWith(`${prefix}/`)) own.push(glob.slice(prefix.length + 1));
  }
  return [...PRIVATE_PATHS, ...own];
}
