import { redactCredentialForms } from './credential-files.js';
import { isSecretEnvName, isSecretName, mayHoldSecretName } from './secret-names.js';
import { learnableSecret, looksLikeSecretValue, REDACTED } from './secret-values.js';

export { REDACTED } from './secret-values.js';

/**
 * Token formats that are secrets wherever they appear, each with the literals one of which any
 * match contains. Most text (test ids, paths, passing tests' output) holds none of them, and a
 * substring search is far cheaper than a regex pass: a pattern runs only where one is present.
 */
const TOKEN_PATTERNS: ReadonlyArray<{ pattern: RegExp; needles: readonly string[] }> = [
  { pattern: /sk-ant-[A-Za-z0-9_-]{8,}/g, needles: ['sk-ant-'] }, // Anthropic
  { pattern: /sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g, needles: ['sk-'] }, // OpenAI
  { pattern: /gh[pousr]_[A-Za-z0-9]{30,}/g, needles: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'] }, // GitHub
  { pattern: /github_pat_[A-Za-z0-9_]{40,}/g, needles: ['github_pat_'] },
  { pattern: /glpat-[A-Za-z0-9_-]{20,}/g, needles: ['glpat-'] }, // GitLab
  { pattern: /xox[abposr]-[A-Za-z0-9-]{10,}/g, needles: ['xox'] }, // Slack
  { pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, needles: ['AKIA', 'ASIA'] }, // AWS access key id
  { pattern: /AIza[0-9A-Za-z_-]{35}/g, needles: ['AIza'] }, // Google API key
  {
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWT
    needles: ['eyJ'],
  },
  {
    // A whole block, or one a bounded tail or a message cut before its END line (its base64 lines,
    // real or `\n` escapes); PGP's ends in BLOCK.
    pattern:
      /-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]{0,20000}?-----END [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?:(?:\r?\n|(?:\\r)?\\n)[ \t]{0,8}[A-Za-z0-9+/=]{16,}){0,400})/g,
    needles: ['-----BEGIN '],
  },
  { pattern: /\bpypi-AgE[A-Za-z0-9_-]{40,}/g, needles: ['pypi-'] }, // PyPI API token
  { pattern: /\b(?:npm_[A-Za-z0-9]{36})\b/g, needles: ['npm_'] },
  { pattern: /\b(?:hf_[A-Za-z0-9]{30,})\b/g, needles: ['hf_'] }, // Hugging Face
  { pattern: /\b(?:sk_live|rk_live|pk_live)_[A-Za-z0-9]{16,}/g, needles: ['_live_'] }, // Stripe
  { pattern: /(?<=\b(?:Bearer|Basic)\s+)[A-Za-z0-9._~+/=-]{16,}/g, needles: ['Bearer', 'Basic'] },
  { pattern: /(?<=:\/\/[^\s:/@]+:)[^\s@/]{3,}(?=@)/g, needles: ['://'] }, // password in a URL
  {
    pattern: /(?<=hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9_/-]{8,}/g, // Slack webhook
    needles: ['hooks.slack.com/'],
  },
  {
    pattern: /(?<=discord(?:app)?\.com\/api\/webhooks\/)[0-9]+\/[A-Za-z0-9_-]{20,}/g, // Discord webhook
    needles: ['/api/webhooks/'],
  },
];

/**
 * A quoted literal assigned to a name: `DB_PASSWORD = "..."`, `password: 'x'`, `"apiKey": "x"`,
 * `os.environ["TOKEN"] = "..."`, `secret := "..."`. The name decides whether the value is masked.
 */
// Every quantifier is bounded and a name starts where no name character precedes it: report text
// can be megabytes on one line, and unbounded runs made the scan cubic on such text.
const QUOTED_ASSIGNMENT =
  /(?<![\w.-])(["']?)([A-Za-z_][\w.-]{0,99})\1(\]?)((?:\s{0,20}:\s{0,20}[A-Za-z_][\w[\]., |]{0,99}?)?\s{0,20}(?::=|=>|=|:)\s{0,20})(["'`])((?:(?!\5)[^\\\n]|\\.){1,500}?)\5/g;
/** `ADMIN_PASSWORD=hunter2` or `STRIPE_SECRET: sk_...` as tests and tools print them: upper-case names only. */
const PRINTED_ASSIGNMENT = /\b([A-Z][A-Z0-9_]{0,99})(=|: )([^\s'"`,;&]{3,500})/g;

/**
 * Collects secret values from an environment: values of variables named like keys, tokens,
 * secrets and passwords (at least 6 characters, so that `PASS=1` does not blank every "1").
 */
export function secretValues(env: NodeJS.ProcessEnv = process.env, names: readonly RegExp[] = []): string[] {
  const values = new Set<string>();
  for (const [name, value] of Object.entries(env)) {
    if (!value || value.length < 6) continue;
    if (isSecretEnvName(name, names)) values.add(value);
  }
  return [...values].sort((a, b) => b.length - a.length);
}

/** The most secret values one redactor searches every string for. */
const MAX_KNOWN = 5000;

export interface Redactor {
  (text: string): string;
}

/** What a redactor knows beyond the environment. */
export interface RedactorOptions {
  /** Extra names whose values are secrets (the config's `secrets.names`). */
  names?: readonly RegExp[];
  /** Extra secret value formats (the config's `secrets.patterns`). */
  patterns?: readonly RegExp[];
}

/**
 * The values under secret names in `text`: literals assigned to one in source (`DB_PASSWORD =
 * "..."`), lines of credential files (`password = ...`, netrc, `.npmrc`) and values printed under
 * one (`ADMIN_PASSWORD=...`), each specific enough to mask wherever it appears on its own.
 */
export function secretLiterals(text: string, names: readonly RegExp[] = []): string[] {
  const found = new Set<string>();
  const keep = (value: string): void => {
    if (learnableSecret(value)) found.add(value);
  };
  if (names.length === 0 && !mayHoldSecretName(text)) return [];
  for (const m of text.matchAll(QUOTED_ASSIGNMENT))
    if (isSecretName(m[2]!, names) && looksLikeSecretValue(m[6]!)) keep(m[6]!);
  for (const m of text.matchAll(PRINTED_ASSIGNMENT))
    if (isSecretName(m[1]!, names) && looksLikeSecretValue(m[3]!)) keep(m[3]!);
  redactCredentialForms(text, REDACTED, names, keep);
  return [...found];
}

/**
 * A redactor for the given environment plus extra known secrets (an API key from a config file,
 * the values of the repository's `.env` files, literals of its sources). It masks those values,
 * well-known token formats, values printed under a secret name (`ADMIN_PASSWORD=...`), literals
 * assigned to a secret name in source (`DB_PASSWORD = "..."`) and the lines of credential files
 * (INI, YAML, netrc, `.npmrc`). A value it masks under a secret name is learned: from then on it
 * is masked wherever it appears, as when a test prints the password its source holds.
 */
export function createRedactor(
  env: NodeJS.ProcessEnv = process.env,
  extra: readonly string[] = [],
  options: RedactorOptions = {},
): Redactor {
  const names = options.names ?? [];
  const known = new Set([...secretValues(env, names), ...extra.filter((v) => v.length >= 6)]);
  let values = [...known].sort((a, b) => b.length - a.length);
  let forget = (): void => undefined;
  const learn = (value: string): void => {
    // bounded: every value is searched for in every string (a suite printing thousands of
    // tokens keeps the rules that found them, which mask each where it stands)
    if (known.has(value) || known.size >= MAX_KNOWN || !learnableSecret(value)) return;
    known.add(value);
    values = [...known].sort((a, b) => b.length - a.length);
    // what was remembered before may hold the value unmasked
    forget();
  };
  const own = (options.patterns ?? []).map(
    (p) => new RegExp(p.source, p.flags.includes('g') ? p.flags : `${p.flags}g`),
  );
  // A configured name pattern can match any name, so the cheap test for a secret name is off then.
  const mayNameSecret = names.length > 0 ? (): boolean => true : mayHoldSecretName;
  const redact = (text: string): string => {
    let out = text;
    for (const value of values) {
      if (out.includes(value)) out = out.split(value).join(REDACTED);
    }
    for (const { pattern, needles } of TOKEN_PATTERNS)
      if (needles.some((n) => out.includes(n))) out = out.replace(pattern, REDACTED);
    for (const pattern of own) out = out.replace(pattern, REDACTED);
    if (!mayNameSecret(out)) return out;
    const learned: string[] = [];
    if (/["'`]/.test(out))
      out = out.replace(
        QUOTED_ASSIGNMENT,
        (whole, q: string, name: string, bracket: string, op: string, quote: string, value: string) => {
          if (!isSecretName(name, names) || !looksLikeSecretValue(value)) return whole;
          learned.push(value);
          return `${q}${name}${q}${bracket}${op}${quote}${REDACTED}${quote}`;
        },
      );
    out = out.replace(PRINTED_ASSIGNMENT, (whole, name: string, op: string, value: string) => {
      if (!isSecretName(name, names) || !looksLikeSecretValue(value)) return whole;
      learned.push(value);
      return `${name}${op}${REDACTED}`;
    });
    out = redactCredentialForms(out, REDACTED, names, (v) => learned.push(v));
    for (const value of learned) learn(value);
    // a value learned here may stand elsewhere in the same text, apart from its name
    for (const value of learned) if (known.has(value)) out = out.split(value).join(REDACTED);
    return out;
  };
  const memo = memoized(redact);
  forget = memo.forget;
  return memo.redact;
}

/**
 * The same strings are redacted again and again: a test's id, name and file in its live event,
 * in every round of the report and in the JSON, JUnit and Markdown reporters' copies. Short
 * strings are remembered (within a bound on what is kept), so each is scanned once per run,
 * until the redactor learns a new secret.
 */
function memoized(redact: Redactor): { redact: Redactor; forget: () => void } {
  const MAX_LENGTH = 4096;
  const MAX_KEPT_CHARS = 8 * 1024 * 1024;
  let seen = new Map<string, string>();
  let kept = 0;
  const forget = (): void => {
    seen = new Map();
    kept = 0;
  };
  return {
    forget,
    redact: (text: string): string => {
      if (text.length > MAX_LENGTH) return redact(text);
      const hit = seen.get(text);
      if (hit !== undefined) return hit;
      const out = redact(text);
      kept += text.length + out.length;
      if (kept > MAX_KEPT_CHARS) forget();
      seen.set(text, out);
      kept += text.length + out.length;
      return out;
    },
  };
}

/** Redacts every string inside a JSON-like value (for reports). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}
