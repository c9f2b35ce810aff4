/**
 * Which names hold secrets: environment variables, keys printed by tests (`ADMIN_PASSWORD=...`)
 * and names assigned a literal in source (`DB_PASSWORD = "..."`). One answer for all three, so a
 * name the redactor masks in the environment is masked in test output and source too.
 */

/** Environment variable names whose values are secrets (a substring is enough: PGPASSWORD, GHTOKEN). */
const SECRET_ENV_NAME =
  /(^|_)(KEY|PASS|PWD|CREDS?|CREDENTIALS?|AUTH)($|_)|TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE/i;
/** Names that match the pattern but hold no secret (the shell's working directories). */
const NOT_SECRET_ENV_NAME = new Set(['PWD', 'OLDPWD']);

/** Words that make a name secret wherever they stand in it. */
const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'passphrase',
  'pass',
  'pwd',
  'secret',
  'secrets',
  'token',
  'creds',
  'cred',
  'credential',
  'credentials',
  'auth',
  'apikey',
  'privatekey',
  'secretkey',
  'accesskey',
]);
/** Spelled together with other words: `dbpassword`, `CLIENTSECRET`. */
const SECRET_INFIX = /password|passwd|passphrase|secret/i;
/** `*_key` names that hold no secret: database and cache keys, lookups. */
const ORDINARY_KEYS = new Set([
  'primary',
  'foreign',
  'sort',
  'cache',
  'partition',
  'hash',
  'dict',
  'map',
  'lookup',
  'index',
  'unique',
  'composite',
  'public',
  'row',
  'group',
  'idempotency',
  'translation',
  'i18n',
  'label',
  'name',
  'field',
  'column',
  'type',
  'sequence',
  'object',
  'storage',
  'react',
  'list',
  'registry',
  'dedupe',
]);

/**
 * Could any name in `text` be a secret name (without configured names)? Every rule of
 * isSecretName needs one of these words in the name, so text holding none (most test output,
 * ids and paths) needs no scan for assignments. Built from the same lists, so it cannot lag them.
 */
const SECRET_NAME_HINT = ((): RegExp => {
  const words = [...SECRET_WORDS, 'key', ...SECRET_INFIX.source.split('|')];
  // a word that holds a shorter one (password holds pass) adds nothing to the alternation
  const needed = words.filter((w) => !words.some((v) => v !== w && w.includes(v)));
  return new RegExp([...new Set(needed)].join('|'), 'i');
})();

/** The words every secret name holds one of, as one regular expression (for `git grep -i -E` too). */
export function secretNameHint(): RegExp {
  return SECRET_NAME_HINT;
}

export function mayHoldSecretName(text: string): boolean {
  return SECRET_NAME_HINT.test(text);
}

/** `MY_SERVICE_CREDS` -> my, service, creds; `clientSecret` -> client, secret. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

/**
 * Is a name (a variable, a key in printed output, a JSON field) one whose value is a secret?
 * `key` alone counts only as the last word of a longer name (`stripe_key`, `apiKey`), never a
 * cache, sort or primary key; `extra` adds the configured names.
 */
export function isSecretName(name: string, extra: readonly RegExp[] = []): boolean {
  if (extra.some((re) => re.test(name))) return true;
  if (SECRET_INFIX.test(name)) return true;
  const words = nameWords(name);
  if (words.some((w) => SECRET_WORDS.has(w))) return true;
  const last = words.length - 1;
  return last >= 1 && words[last] === 'key' && !ORDINARY_KEYS.has(words[last - 1]!);
}

/** Is an environment variable one whose value is a secret? */
export function isSecretEnvName(name: string, extra: readonly RegExp[] = []): boolean {
  if (NOT_SECRET_ENV_NAME.has(name.toUpperCase())) return false;
  return SECRET_ENV_NAME.test(name) || isSecretName(name, extra);
}
